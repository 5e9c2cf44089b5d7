package e2e

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// Gemini CLI in a pane: +status shows it busy during a turn and idle
// after; a SIGTERM to the CLI ends superclaude, not restarted, with the
// CLI's own code: Gemini CLI catches SIGTERM and exits 0.
// (Ctrl-Z is not tested: Gemini CLI reads it as a key, and does not stop,
// when it runs plainly too.)
func TestGeminiStatusAndSIGTERM(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gs", "main", "")
	tm.send(pane, "superclaude +run --profile gemini")
	sup := tm.supervisor(pane)
	tm.waitScreen(pane, "Type your message")

	hold := make(chan struct{})
	w.gemini.Push(fakegemini.Reply{Text: "finally", Hold: hold})
	w.turn(tm, pane, "take your time")
	w.until("+status to show gemini busy", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "busy" && v["profile"] == "gemini"
	})
	close(hold)
	tm.waitScreen(pane, "finally")
	w.until("+status to show gemini idle", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "idle"
	})

	cli := agentProcs(sup, "gemini")
	if len(cli) == 0 {
		t.Fatal("no gemini process")
	}
	if err := proc.Signal(cli[len(cli)-1].Identity, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	w.until("superclaude to end", func() bool { return !proc.Alive(sup) })
	if code, _ := tm.exitAndStty(pane); code != 0 {
		t.Errorf("SIGTERM to gemini: superclaude exited %d, want gemini's own 0", code)
	}
	if n := len(w.agentStarts()); n != 1 {
		t.Errorf("gemini was started %d times, want once", n)
	}
}

// Gemini CLI's first prompt on the command line is not sent again when a
// crash restarts it: the restart resumes the conversation the prompt went
// to.
func TestGeminiRestartDoesNotReplayTheFirstPrompt(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gp", "main", "")
	prompt := "say the word once"
	tm.send(pane, "superclaude +run --profile gemini -- "+shellQuote(prompt))
	sup := tm.supervisor(pane)
	if _, ok := w.gemini.WaitAfter(0, wait, func(r *fakegemini.Request) bool {
		return r.Kind == fakegemini.KindTurn && r.LastUserText() == prompt
	}); !ok {
		t.Fatal("the first prompt never reached the API")
	}
	sess := w.mine(sup.PID, "the conversation to be bound", func(st *state.State) bool { return st.SessionID != "" })
	tm.waitScreen(pane, "Type your message")
	time.Sleep(time.Until(sess.State.StartedAt.Add(6 * time.Second))) // past "fails as it starts"
	cli := agentProcs(sup, "gemini")
	proc.Signal(cli[len(cli)-1].Identity, syscall.SIGKILL)
	w.until("gemini to be started again", func() bool { return len(w.agentStarts()) == 2 })
	tm.waitScreen(pane, "Type your message")
	time.Sleep(2 * time.Second) // time for a replayed prompt to reach the API
	sent := 0
	for _, r := range w.gemini.Turns() {
		if r.LastUserText() == prompt {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the first prompt reached the API %d times, want once", sent)
	}
	if restart := w.agentStarts()[1]; slices.Contains(restart, prompt) || !slices.Equal(restart, []string{"--resume", sess.State.SessionID}) {
		t.Errorf("the restart ran gemini %q, want --resume %s", restart, sess.State.SessionID)
	}
}
