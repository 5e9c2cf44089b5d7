package supervise

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/state"
)

// lostWithin waits for the event log of sess to hold a prompt-lost event
// and returns its reason.
func lostWithin(t *testing.T, store *state.Store, sess string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		evs, _ := store.Events(sess)
		for _, ev := range evs {
			if ev.Kind == "prompt-lost" {
				return ev.Reason
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no prompt-lost event: %+v", evs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// typed puts a prompt of the person's that no turn has answered into the
// session, as the UserPromptSubmit hook of s's agent notes it.
func typed(t *testing.T, s *Supervisor, store *state.Store, sess, text string) {
	t.Helper()
	if _, err := store.Update(sess, "test", func(st *state.State) error {
		st.PendingPrompts = append(st.PendingPrompts, state.Prompt{ID: "p1", At: time.Now(), Text: text, By: s.Identity().String()})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A prompt that cannot be carried into the next agent is never lost in
// silence (issue 18): the event log (+why) quotes it with why, and the
// person reads it on the terminal — between two agents when an agent
// follows (here a profile that takes no first prompt), or in the run's
// last words, shown once the terminal is back, when none does.
func TestAPromptThatCannotBeCarriedIsToldAndQuoted(t *testing.T) {
	const prompt = "B: the IMPORTANT next instruction"
	t.Run("between two agents, on the terminal", func(t *testing.T) {
		master, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer master.Close()
		defer tty.Close()
		var screen syncBuffer
		go io.Copy(&screen, master)
		sock, _, store := socketAndStore(t)
		s, err := Start(context.Background(), Config{Profile: Profile{Name: "mute"}, Command: "/bin/sleep", Args: []string{"60"},
			Terminal: child.NewTerminal(tty, tty), Store: store, Socket: sock,
			Grace: time.Second, CrashDelay: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { s.Stop(true); s.Wait() }()
		st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
		typed(t, s, store, st.Session, prompt)
		syscall.Kill(st.AgentPID, syscall.SIGKILL)
		why := lostWithin(t, store, st.Session)
		if !strings.Contains(why, `"`+prompt+`"`) || !strings.Contains(why, "the mute profile cannot give the agent a first prompt") {
			t.Errorf("the event does not quote the prompt and say why: %q", why)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(strings.ReplaceAll(screen.String(), "\r\n", "\n"), why) {
			if time.Now().After(deadline) {
				t.Fatalf("the terminal does not show %q:\n%q", why, screen.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("at the end, once the terminal is back", func(t *testing.T) {
		sock, _, store := socketAndStore(t)
		fail := filepath.Join(t.TempDir(), "fail")
		pol := DefaultPolicy
		pol.StartupFailWindow = time.Hour // the first agent fails "as it starts": no restart
		s, err := Start(context.Background(), Config{Profile: Claude, Command: "/bin/sh",
			Args: []string{"-c", `while [ ! -e "$FAIL" ]; do sleep 0.02; done; exit 1`}, Env: append(os.Environ(), "FAIL="+fail),
			Store: store, Policy: pol, Socket: sock, Grace: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
		typed(t, s, store, st.Session, prompt)
		os.WriteFile(fail, nil, 0o600)
		res := s.Wait()
		why := lostWithin(t, store, st.Session)
		if !strings.Contains(why, `"`+prompt+`"`) || !strings.Contains(why, "superclaude is not starting the agent again") {
			t.Errorf("the event does not quote the prompt and say why: %q", why)
		}
		if !strings.Contains(res.Message, why) {
			t.Errorf("the run's last words %q do not tell the person %q", res.Message, why)
		}
	})
}
