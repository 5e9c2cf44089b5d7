package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// serverRestart runs superclaude in a labelled pane (fleet:w:SDK) where a
// skill activates sessions/X, lets prepare do its part, kills the tmux
// server — every pane's processes get SIGHUP, as when a machine or a
// terminal goes away — starts a new server with the same session, window
// and label, runs superclaude there again and returns the new start's
// arguments and the conversation X had.
func serverRestart(t *testing.T, w *world, prepare func(tm *tmuxServer, pane string)) (args []string, conv string, tm *tmuxServer, pane string, sup proc.Identity) {
	t.Helper()
	tm = w.tmux()
	pane = tm.pane("fleet", "w", "SDK")
	tm.send(pane, "superclaude")
	first := tm.supervisor(pane)
	w.mine(first.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	x := w.session("X", "the conversation id and the pane", func(st *state.State) bool {
		return st.SessionID != "" && st.FleetPaneID == "fleet:w:SDK"
	})
	conv = x.SessionID
	if prepare != nil {
		prepare(tm, pane)
	}
	starts := len(w.agentStarts())

	tm.kill()
	w.until("the first supervisor to end with its server", func() bool { return !proc.Alive(first) })
	if left := leftovers(first); len(left) != 0 {
		t.Fatalf("the killed server's supervisor left processes: %+v", left)
	}

	pane = tm.pane("fleet", "w", "SDK")
	tm.send(pane, "superclaude")
	sup = tm.supervisor(pane)
	w.until("the new agent to start", func() bool { return len(w.agentStarts()) > starts })
	return w.agentStarts()[starts], conv, tm, pane, sup
}

// S3: the pane resumes its own conversation after a tmux server restart,
// keyed on its label (the session's fleetPaneId), not on tmux's %N.
func TestS3ServerRestartResumesThePanesConversation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	args, conv, tm, pane, sup := serverRestart(t, w, nil)
	if i := slices.Index(args, "--resume"); i < 0 || i+1 >= len(args) || args[i+1] != conv {
		t.Fatalf("the new start's args %q: want --resume %s", args, conv)
	}
	// The first tick of the resumed conversation makes X active again.
	x := w.session("X", "the new supervisor's claim", func(st *state.State) bool { return st.PID == sup.PID && st.Lifecycle == state.Active })
	if x.SessionID != conv || x.Skill != "implement" {
		t.Fatalf("X after the resume: %+v", x)
	}
	// The resumed conversation goes on in the same session.
	mark := w.api.Mark()
	tm.typeLine(pane, "carry on")
	if r, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && strings.Contains(r.LastUserText(), "carry on")
	}); !ok || r.SessionID != conv {
		t.Fatalf("the next turn ran in conversation %v, want %s", r, conv)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// S9: a session that overflowed before the server went away is not
// resumed: a fresh conversation starts in it.
func TestS9ServerRestartDuringOverflowStartsFresh(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	args, conv, tm, pane, sup := serverRestart(t, w, func(tm *tmuxServer, pane string) {
		w.model.SetUsage(usage(160_000))
		tm.typeLine(pane, "run: echo step one")
		w.session("X", "contextUsage past the threshold", func(st *state.State) bool { return st.ContextUsage >= 0.76 })
		tm.typeLine(pane, "run: echo step two")
		w.session("X", "overflowed", func(st *state.State) bool { return st.Overflowed })
		w.model.SetUsage(usage(1_000))
	})
	if slices.Contains(args, "--resume") {
		t.Fatalf("an overflowed conversation was resumed: %q", args)
	}
	x := w.session("X", "a fresh conversation bound", func(st *state.State) bool {
		return st.SessionID != "" && st.SessionID != conv && st.PID == sup.PID
	})
	if x.Overflowed {
		t.Fatalf("X is still overflowed after a fresh start: %+v", x)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
