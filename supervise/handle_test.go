package supervise

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// syncBuffer is a log a test reads while the supervisor writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func startSleeper(t *testing.T, p Profile, store *state.Store, log *syncBuffer) *Supervisor {
	t.Helper()
	rt, err := os.MkdirTemp("", "sc-handle-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	cfg := Config{Profile: p, Command: "/bin/sleep", Args: []string{"60"}, Socket: filepath.Join(rt, "s.sock"),
		Grace: time.Second, CrashDelay: 10 * time.Millisecond, Store: store}
	if log != nil {
		cfg.Log = slog.New(slog.NewTextHandler(log, nil))
	}
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(true); s.Wait() })
	return s
}

func waitStatus(t *testing.T, s *Supervisor, what string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := s.Status()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s: %+v", what, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An agent whose CLI tells neither what it is doing nor which
// conversation it has is shown as such: "unknown", and why its
// conversation cannot be learned — in the handle's Status and in the
// session, which +status reads. A restart of it does not wait for a turn
// it cannot see, and the event log says so.
func TestAnAgentThatTellsNothingIsShownAsUnknown(t *testing.T) {
	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := startSleeper(t, Profile{Name: "mute"}, store, nil)
	st := waitStatus(t, s, "the agent", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	if st.Agent != StatusUnknown || !strings.Contains(st.ConversationUnknown, "cannot tell which conversation") {
		t.Errorf("status %+v: want agent unknown and why its conversation is unknown", st)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		sess, err := store.Load(st.Session)
		if err == nil && strings.Contains(sess.ConversationUnknown, "cannot tell") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session does not say its conversation is unknown: %+v, %v", sess, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	first := st.AgentPID
	if err := s.Restart("", false); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s, "the restarted agent", func(st Status) bool { return st.AgentPID != 0 && st.AgentPID != first })
	evs, _ := store.Events(st.Session)
	said := false
	for _, ev := range evs {
		if ev.Kind == "restart" && strings.Contains(ev.Reason, "did not wait") {
			said = true
		}
	}
	if !said {
		t.Errorf("no event says the restart did not wait for a turn: %+v", evs)
	}
}

// A profile whose Status fails — here Codex's reader, given a rollout file
// that is gone — leaves the agent running, and shows it as unknown with
// why: in the handle's Status and in the session, which +status reads (an
// audit of issue 16: +status showed nothing). The log says why, once.
func TestAnUnreadableStatusShowsUnknownWithWhy(t *testing.T) {
	var log syncBuffer
	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "rollout-2026-12-01T10-00-00-019a4f3c-7b2e-7c41-9d2a-5e6f7a8b9c0d.jsonl")
	p := Profile{Name: "broken", Status: func(Running) (string, error) { return rolloutStatus(gone) }}
	s := startSleeper(t, p, store, &log)
	st := waitStatus(t, s, "the agent, unknown", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" && st.Agent != "" })
	for i := 0; i < 3; i++ {
		if st.Agent != StatusUnknown || st.Ended || st.AgentPID == 0 ||
			st.AgentUnknown != "its status cannot be read: no such file or directory" {
			t.Fatalf("status %+v: want a running agent shown unknown, with why", st)
		}
		st = s.Status()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		sess, err := store.Load(st.Session)
		if err == nil && sess.AgentStatus == StatusUnknown && sess.AgentUnknown == st.AgentUnknown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session does not show the agent unknown with why: %+v, %v", sess, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := strings.Count(log.String(), "no such file or directory"); n != 1 {
		t.Errorf("the log says %d times that the status is unreadable, want once:\n%s", n, log.String())
	}
}

// A reading of the agent's status that fails once — a file caught as its
// CLI rewrites it reads as garbage for a moment — is not "unknown": the
// last status stands until the next reading, which reads. (Found when
// the unknown state was first shown: a fleet pane flickered to unknown.)
func TestAStatusFailingOnceIsNotShownUnknown(t *testing.T) {
	var n atomic.Int32
	p := Profile{Name: "rewrites", Status: func(Running) (string, error) {
		if n.Add(1)%2 == 1 {
			return "", errors.New("unexpected end of JSON input")
		}
		return StatusBusy, nil
	}}
	s := startSleeper(t, p, nil, nil) // no sessions: only Status reads it
	waitStatus(t, s, "the agent", func(st Status) bool { return st.AgentPID != 0 })
	for i := 0; i < 10; i++ {
		if st := s.Status(); st.Agent == StatusUnknown {
			t.Fatalf("reading %d: a status that failed once shows unknown: %+v", i, st)
		}
	}
}

// Stop ends the run at once with now, and Wait returns the agent's code;
// a Restart after the end says so.
func TestStopEndsTheRun(t *testing.T) {
	s := startSleeper(t, Profile{Name: "mute"}, nil, nil)
	waitStatus(t, s, "the agent", func(st Status) bool { return st.AgentPID != 0 })
	s.Stop(true)
	if res := s.Wait(); res.ExitCode != 143 {
		t.Errorf("exit %d (%s), want 143", res.ExitCode, res.Reason)
	}
	if !s.Status().Ended {
		t.Error("Status does not say the run ended")
	}
	if err := s.Restart("", true); !errors.Is(err, ErrEnded) {
		t.Errorf("Restart after the end: %v, want ErrEnded", err)
	}
}
