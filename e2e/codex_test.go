package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeopenai"
)

// The real Codex CLI under superclaude in a tmux pane (issue 16): a turn
// against the fake Responses API, Ctrl-Z leaving a stopped job on a cooked
// terminal and fg bringing Codex back, and /quit ending superclaude with
// Codex's own 0.
func TestCodexTurnCtrlZAndExitCode(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("cx", "main", "")
	tm.send(pane, "superclaude +run --profile codex")
	sup := tm.supervisor(pane)
	w.openai.Push(fakeopenai.Text("pong-from-the-fake"))
	mark := w.openai.Mark()
	tm.typeCodex(pane, "ping")
	if _, ok := w.openai.WaitAfter(mark, wait, func(r *fakeopenai.Request) bool {
		return r.Kind == fakeopenai.KindTurn && r.LastUserText() == "ping"
	}); !ok {
		t.Fatal("the prompt never reached the API")
	}
	tm.waitScreen(pane, "pong-from-the-fake")

	tm.suspendAndResume(pane, sup, "Stopped", "? for shortcuts")
	w.openai.Push(fakeopenai.Text("pong-after-fg"))
	tm.typeCodex(pane, "ping after fg")
	tm.waitScreen(pane, "pong-after-fg")

	tm.typeCodex(pane, "/quit")
	tm.exitsCooked(pane, sup, 0)
	if n := len(w.agentStarts()); n != 1 {
		t.Errorf("codex was started %d times, want once", n)
	}
}

// codexStart runs superclaude with the codex profile in pane (args after
// --), and returns the supervisor once Codex waits at its prompt.
func (w *codexWorld) codexStart(tm *tmuxServer, pane string, args ...string) proc.Identity {
	w.t.Helper()
	sup := tm.runProfile(pane, "codex", args...)
	tm.codexReady(pane)
	return sup
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// turn types prompt into Codex and waits for its request to reach the API;
// it returns the request.
func (w *codexWorld) turn(tm *tmuxServer, pane, prompt string) *fakeopenai.Request {
	w.t.Helper()
	mark := w.openai.Mark()
	tm.typeCodex(pane, prompt)
	r, ok := w.openai.WaitAfter(mark, wait, func(r *fakeopenai.Request) bool {
		return r.Kind == fakeopenai.KindTurn && r.LastUserText() == prompt
	})
	if !ok {
		w.t.Fatalf("the prompt %q never reached the API", prompt)
	}
	return r
}

// crash kills the native Codex process under supervisor with SIGKILL, as an
// out-of-memory killer would, and returns the killed process.
func (w *codexWorld) crash(sup proc.Identity) proc.Info {
	w.t.Helper()
	var native []proc.Info
	w.until("codex's native process", func() bool {
		native = agentProcs(sup, "codex-linux")
		return len(native) > 0
	})
	if err := proc.Signal(native[0].Identity, syscall.SIGKILL); err != nil {
		w.t.Fatal(err)
	}
	return native[0]
}

// A crash resumes the same conversation (issue 16: nothing recorded
// Codex's conversation id, so every restart started a new one): the
// session binds the thread Codex's requests carry, SIGKILL of Codex starts
// `codex resume <that id>`, and the next turn's request is on the same
// thread and carries the earlier turn.
func TestCodexCrashResumesTheSameConversation(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("cc", "main", "")
	sup := w.codexStart(tm, pane)
	first := w.turn(tm, pane, "remember the word tangerine")
	sess := w.mine(sup.PID, "the session to bind codex's conversation", func(st *state.State) bool {
		return st.SessionID != ""
	})
	if sess.State.SessionID != first.ThreadID {
		t.Fatalf("the session bound conversation %s, but codex's requests carry thread %s", sess.State.SessionID, first.ThreadID)
	}
	if sess.State.AgentProfile != "codex" || !strings.Contains(sess.State.TranscriptPath, first.ThreadID) {
		t.Errorf("session: profile %q, transcript %q", sess.State.AgentProfile, sess.State.TranscriptPath)
	}

	w.crash(sup)
	w.until("codex to be started again", func() bool { return len(w.agentStarts()) == 2 })
	tm.codexReady(pane)
	second := w.turn(tm, pane, "what was the word")
	if second.ThreadID != first.ThreadID {
		t.Fatalf("after the crash codex runs thread %s, not %s", second.ThreadID, first.ThreadID)
	}
	if !slices.Contains(second.UserTexts(), "remember the word tangerine") {
		t.Errorf("the resumed conversation lacks the first turn: %q", second.UserTexts())
	}
	starts := w.agentStarts()
	if want := []string{"--no-daemon", "resume", first.ThreadID}; !slices.Equal(starts[1], want) {
		t.Errorf("the restart ran codex %q, want %q", starts[1], want)
	}
	if !proc.Alive(sup) {
		t.Fatal("superclaude is gone")
	}
}

// The first prompt is not replayed (issue 16: a prompt given on the
// command line ran again on each crash restart, so a task that appends to
// a file ran twice).
func TestCodexRestartDoesNotReplayTheFirstPrompt(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("cp", "main", "")
	prompt := "run: echo once >> appended.txt"
	tm.send(pane, "superclaude +run --profile codex -- "+shellQuote(prompt))
	sup := tm.supervisor(pane)
	w.until("the command to run once", func() bool {
		b, _ := os.ReadFile(filepath.Join(w.project, "appended.txt"))
		return string(b) == "once\n"
	})
	w.mine(sup.PID, "the session to bind codex's conversation", func(st *state.State) bool { return st.SessionID != "" })
	tm.codexReady(pane)
	w.crash(sup)
	w.until("codex to be started again", func() bool { return len(w.agentStarts()) == 2 })
	tm.codexReady(pane)
	time.Sleep(2 * time.Second) // time for a replayed prompt to reach the API
	if b, _ := os.ReadFile(filepath.Join(w.project, "appended.txt")); string(b) != "once\n" {
		t.Errorf("appended.txt holds %q: the prompt ran again", b)
	}
	sent := 0
	for _, r := range w.openai.Turns() {
		if r.LastUserText() == prompt && !r.EndsWithToolOutput() {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the prompt reached the API %d times, want once", sent)
	}
	if restart := w.agentStarts()[1]; slices.Contains(restart, prompt) {
		t.Errorf("the restart's command line %q holds the first prompt", restart)
	}
}
