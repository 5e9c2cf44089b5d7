package e2e

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// turn types prompt into Gemini CLI and waits for its turn to reach the
// API; it returns the request. A resumed Gemini CLI draws its composer
// before it has loaded the conversation, and drops what is typed meanwhile:
// a prompt that vanished without reaching the API is typed again, a
// prompt still in the composer gets Enter again.
func (w *geminiWorld) turn(tm *tmuxServer, pane, prompt string) *fakegemini.Request {
	w.t.Helper()
	mark := w.gemini.Mark()
	sent := func(r *fakegemini.Request) bool { return r.Kind == fakegemini.KindTurn && r.LastUserText() == prompt }
	tm.typeGemini(pane, prompt)
	for try := 0; try < 5; try++ {
		if r, ok := w.gemini.WaitAfter(mark, 5*time.Second, sent); ok {
			return r
		}
		if lineShows(tm.capture(pane), prompt, geminiComposer...) {
			tm.must("send-keys", "-t", pane, "Enter")
		} else {
			tm.typeGemini(pane, prompt)
		}
	}
	w.t.Fatalf("the prompt %q never reached the API; screen:\n%s", prompt, tm.capture(pane))
	return nil
}

// The real Gemini CLI under superclaude in a tmux pane (issue 16): it
// starts under a conversation id the supervisor chose, answers a turn
// against the fake Gemini API, and the session binds that conversation
// once the CLI has written it; a crash (SIGKILL of the CLI) resumes it
// with `--resume <id>` — the next turn carries the first — and /quit ends
// superclaude with the CLI's 0.
func TestGeminiStartTurnCrashResumeExit(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gm", "main", "")
	tm.send(pane, "superclaude +run --profile gemini")
	sup := tm.supervisor(pane)
	w.gemini.Push(fakegemini.Text("pong-from-the-fake"))
	w.turn(tm, pane, "remember the word tangerine")
	tm.waitScreen(pane, "pong-from-the-fake")
	sess := w.mine(sup.PID, "the session to bind gemini's conversation", func(st *state.State) bool { return st.SessionID != "" })
	id := sess.State.SessionID
	first := w.agentStarts()[0]
	if i := slices.Index(first, "--session-id"); i < 0 || first[i+1] != id {
		t.Fatalf("the session bound %s, but gemini was started with %q", id, first)
	}
	if sess.State.AgentProfile != "gemini" || !strings.Contains(sess.State.TranscriptPath, id[:8]) {
		t.Errorf("session: profile %q, transcript %q", sess.State.AgentProfile, sess.State.TranscriptPath)
	}

	w.crash(sup, sess.State)
	w.until("gemini to be started again", func() bool { return len(w.agentStarts()) == 2 })
	if restart := w.agentStarts()[1]; !slices.Equal(restart, []string{"--resume", id}) {
		t.Fatalf("the restart ran gemini %q, want --resume %s", restart, id)
	}
	second := w.turn(tm, pane, "what was the word")
	if !slices.Contains(second.UserTexts(), "remember the word tangerine") {
		t.Errorf("the resumed conversation lacks the first turn: %q", second.UserTexts())
	}

	tm.typeGemini(pane, "/quit")
	w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	if code, stty := tm.exitAndStty(pane); code != 0 || len(cooked(stty)) != 0 {
		t.Errorf("superclaude exited %d (want gemini's 0), terminal missing %v", code, cooked(stty))
	}
	if n := len(w.agentStarts()); n != 2 {
		t.Errorf("gemini was started %d times, want twice", n)
	}
}

// crash kills the node process of the Gemini CLI that supervisor runs in
// session st (its launcher in front of it then exits 1) — a while after
// the start: an agent that fails in its first 5 s failed as it started,
// and is not started again.
func (w *geminiWorld) crash(supervisor proc.Identity, st *state.State) {
	w.t.Helper()
	time.Sleep(time.Until(st.StartedAt.Add(6 * time.Second)))
	var cli []proc.Info
	w.until("gemini's node processes", func() bool {
		cli = agentProcs(supervisor, "gemini")
		return len(cli) > 0
	})
	if err := proc.Signal(cli[len(cli)-1].Identity, syscall.SIGKILL); err != nil {
		w.t.Fatal(err)
	}
}
