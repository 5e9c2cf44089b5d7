package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// activate has the fake model activate a session the way the seeds'
// skills do, through claude's Bash tool, and waits for the tool's result.
func activate(t *testing.T, w *world, tm *tmuxServer, pane, dir, skill string) {
	t.Helper()
	mark := w.api.Mark()
	tm.typeLine(pane, "run: superclaude +session activate "+dir+" "+skill)
	if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
		tr, ok := r.LastToolResult()
		return ok && strings.Contains(tr.Text, dir)
	}); !ok {
		t.Fatalf("activate %s: no tool result naming it", dir)
	}
}

// turnIDs lists the conversation ids of the API's turns.
func lastTurnID(w *world) string {
	turns := w.api.Turns()
	if len(turns) == 0 {
		return ""
	}
	return turns[len(turns)-1].SessionID
}

// BIND, S8 and R3: a skill activates sessions/X through claude's Bash
// tool, as the seeds' skills do; X gets the conversation's sessionId and
// its context usage. A skill switch in X (S8) keeps the binding; a second
// session Y activated in the same pane (R3, invariant 1) takes the pane
// and the binding, and X lets go of the pane.
//
// The project has no sessions/ directory when superclaude starts, as on a
// seeds user's first run: the supervisor's own session goes to the user's
// sessions directory, the skill's into the project's, and the binding
// follows it across the two.
func TestBindSkillSessionThenSwitchThenSecondActivation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.RemoveAll(w.sessions)
	tm := w.tmux()
	pane := tm.pane("bind", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })

	// BIND.
	w.model.SetUsage(usage(50_000)) // 25 % of the 200k window
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := lastTurnID(w)
	x := w.session("X", "the conversation id and the usage", func(st *state.State) bool {
		return st.SessionID == conv && st.ContextUsage >= 0.2
	})
	if x.Skill != "implement" || x.Auto || x.PID != sup.PID {
		t.Fatalf("X after activation: %+v", x)
	}
	if sess := w.mine(sup.PID, "X to be the agent's session", func(*state.State) bool { return true }); sess.Name != "X" {
		t.Fatalf("the agent's session is %s", sess.Name)
	}

	// S8: a skill switch in the same session.
	w.model.SetUsage(usage(60_000))
	activate(t, w, tm, pane, "sessions/X", "test")
	w.session("X", "the switched skill and the new usage", func(st *state.State) bool {
		return st.Skill == "test" && st.SessionID == conv && st.ContextUsage >= 0.29
	})

	// R3: a second session in the same pane.
	w.model.SetUsage(usage(70_000))
	activate(t, w, tm, pane, "sessions/Y", "review")
	y := w.session("Y", "the binding to move", func(st *state.State) bool {
		return st.SessionID == conv && st.ContextUsage >= 0.34 && st.FleetPaneID != ""
	})
	x = w.session("X", "to let go of the pane", func(st *state.State) bool { return st.FleetPaneID == "" })
	usageX := x.ContextUsage
	w.model.SetUsage(usage(90_000))
	mark := w.api.Mark()
	tm.typeLine(pane, "one more turn")
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "one more turn") })
	w.session("Y", "the next tick", func(st *state.State) bool { return st.ContextUsage >= 0.44 })
	if x, _ := w.store().Load("X"); x.ContextUsage != usageX {
		t.Fatalf("a tick after Y's activation still wrote X: %v → %v", usageX, x.ContextUsage)
	}
	if y.PID != sup.PID {
		t.Fatalf("Y's owner %d, want %d", y.PID, sup.PID)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
