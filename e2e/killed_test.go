package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Issue 9 (b): superclaude is SIGKILLed while a tool's setsid process runs.
// claude goes with it (its terminal hangs up), but the detached process
// survives, and so do the dead supervisor's socket and launch directory.
// superclaude started again in the same labelled pane ends the leftovers
// within 15 s and resumes the same conversation.
//
// Not parallel: any supervisor that starts sweeps what dead supervisors
// left, the user's whole process list (watchdog.SweepPredecessors), so
// another test's supervisor starting between the SIGKILL and the check
// below ended the detached process first (one clean-clone CI run).
func TestKilledSupervisorIsCleanedUpAfter(t *testing.T) {
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("killed", "main", "K")
	tm.send(pane, "superclaude")
	first := tm.supervisor(pane)
	w.mine(first.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	pidFile := filepath.Join(w.tmp, "detached.pid")
	tm.typeLine(pane, "run: setsid "+sleeper(pidFile)+" > /dev/null 2>&1 &")
	detached := waitPID(t, w, pidFile)
	claude := agentPID(t, w)
	if err := syscall.Kill(first.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w.until("claude to go with its supervisor", func() bool { return !proc.Alive(claude) })
	if !proc.Alive(detached) {
		t.Fatal("the detached process died with the supervisor: the test shows nothing")
	}

	starts := len(w.agentStarts())
	tm.send(pane, "superclaude")
	second := tm.supervisor(pane)
	w.until("the detached process to be swept", func() bool { return !proc.Alive(detached) })
	for _, debris := range []string{strconv.Itoa(first.PID) + ".sock", strconv.Itoa(first.PID) + ".launch"} {
		path := filepath.Join(w.tmp, "superclaude", debris)
		w.until(debris+" of the dead supervisor to go", func() bool { _, err := os.Lstat(path); return err != nil })
	}
	w.until("the new agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !slices.Contains(args, conv) {
		t.Fatalf("the new agent started with %q, want --resume %s", args, conv)
	}
	w.session("X", "the resumed conversation, owned by the new supervisor", func(st *state.State) bool {
		return st.SessionID == conv && st.PID == second.PID && st.Lifecycle == state.Active
	})
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(second) })
}
