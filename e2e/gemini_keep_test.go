package e2e

import (
	"slices"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// A plain Gemini CLI started in the next pane, in the same project, while
// the supervised one waits for its first prompt, deletes the supervised
// one's chat file as it starts (Gemini CLI 0.61 deletes every chat file
// that holds no prompt yet). The supervised conversation must survive
// it: after the first turn, a crash resumes it with `--resume <id>`, and
// the next turn carries the first. Without the keeper the CLI wrote on
// into a file without the conversation's id, the resume exited 42 and a
// new conversation started (a two-pane fleet lost a pane's conversation
// the same way in CI).
func TestGeminiConversationOutlivesAPlainGeminiStartingBesideIt(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gk", "main", "")
	sup := w.geminiStart(tm, pane)
	sess := w.mine(sup.PID, "the session to bind gemini's conversation", func(st *state.State) bool { return st.SessionID != "" })
	id := sess.State.SessionID

	plain := tm.pane("gk", "plain", "")
	tm.send(plain, plainShell+"gemini")
	tm.waitScreen(plain, "Type your message")
	time.Sleep(2 * time.Second) // its cleanup runs as it starts, unawaited

	w.gemini.Push(fakegemini.Text("noted"))
	w.turn(tm, pane, "remember the word tangerine")
	tm.waitScreen(pane, "noted")
	w.crash(sup, sess.State)
	w.until("gemini to be started again", func() bool { return len(w.agentStarts()) >= 2 })
	w.until("the resumed gemini to settle", func() bool {
		s, err := w.store().Load(sess.Name)
		return err == nil && (len(w.agentStarts()) > 2 || s.Lifecycle == state.Active && s.SessionID == id)
	})
	if starts := w.agentStarts(); len(starts) != 2 || !slices.Equal(starts[1], []string{"--resume", id}) {
		t.Fatalf("after the crash gemini was started with %q, want one start with --resume %s", starts[1:], id)
	}
	tm.waitScreen(pane, "Type your message")
	second := w.turn(tm, pane, "what was the word")
	if !slices.Contains(second.UserTexts(), "remember the word tangerine") {
		t.Errorf("the resumed conversation lacks the first turn: %q", second.UserTexts())
	}
	w.quit(tm, pane, sup)
	tm.typeGemini(plain, "/quit")
}
