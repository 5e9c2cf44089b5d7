package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// +history lists what a pane ran before — each conversation with how it
// ended and its first and last prompt — and +resume N resumes one of them
// under a supervisor.
func TestHistoryAndResumeN(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("hist", "main", "H")
	var convs []string
	for _, word := range []string{"alpha", "beta"} {
		tm.send(pane, "superclaude --resume-policy=never")
		sup := tm.supervisor(pane)
		sess := w.mine(sup.PID, "a conversation to bind", func(st *state.State) bool {
			return st.SessionID != "" && !slices.Contains(convs, st.SessionID)
		})
		convs = append(convs, sess.State.SessionID)
		mark := w.api.Mark()
		tm.typeLine(pane, "first prompt "+word)
		w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "first prompt "+word) })
		mark = w.api.Mark()
		tm.typeLine(pane, "last prompt "+word)
		w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "last prompt "+word) })
		tm.typeLine(pane, "/exit")
		w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	}

	tm.send(pane, "clear; superclaude +history")
	screen := tm.waitScreen(pane, "last prompt beta")
	for _, want := range []string{convs[0], convs[1], "first prompt alpha", "last prompt alpha", "first prompt beta", "you exited"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("+history does not show %q:\n%s", want, screen)
		}
	}
	starts := len(w.agentStarts())
	tm.send(pane, "superclaude +resume 1")
	sup := tm.supervisor(pane)
	w.until("the resumed agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !slices.Contains(args, convs[0]) {
		t.Fatalf("+resume 1 started %q, want --resume %s", args, convs[0])
	}
	w.mine(sup.PID, "the resumed conversation to bind", func(st *state.State) bool { return st.SessionID == convs[0] })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
