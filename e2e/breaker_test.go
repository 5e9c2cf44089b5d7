package e2e

import (
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// The progress breaker: after an overflow restart, three fresh agents in a
// row die before they activate the session. The supervisor stops
// restarting, marks the session halted with the reason, and says why once
// the terminal is restored; `+session reset` re-arms it.
func TestBreakerHaltsAfterThreeFreshAgentsWithoutProgress(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("breaker", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" })

	starts := len(w.agentStarts())
	tm.typeLine(pane, "run: superclaude +session restart")
	for i := 1; i <= 3; i++ {
		w.until("fresh agent "+string(rune('0'+i)), func() bool { return len(w.agentStarts()) >= starts+i })
		victim := agentPID(t, w)
		if err := syscall.Kill(victim.PID, syscall.SIGKILL); err != nil {
			t.Fatalf("killing fresh agent %d: %v", i, err)
		}
	}
	x := w.session("X", "halted", func(st *state.State) bool { return st.Halted != "" })
	if x.LastExit != "no-progress" || !strings.Contains(x.Halted, "3 restarts") {
		t.Fatalf("X after the breaker: %+v", x)
	}
	w.until("superclaude to stop", func() bool { return !proc.Alive(sup) })
	if n := len(w.agentStarts()); n != starts+3 {
		t.Fatalf("%d agents started after the restart, want 3", n-starts)
	}
	screen := tm.waitScreen(pane, "halted")
	if !strings.Contains(screen, "superclaude +session reset") {
		t.Fatalf("no readable reason on the screen:\n%s", screen)
	}
	if out, err := w.sc("+session", "reset", "--session", "X"); err != nil {
		t.Fatalf("+session reset: %v %s", err, out)
	}
	if x := w.session("X", "re-armed", func(st *state.State) bool { return st.Halted == "" }); x.NoProgress != 0 {
		t.Fatalf("reset left %+v", x)
	}
}
