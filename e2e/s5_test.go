package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// sleeper is a command for the Bash tool that writes its pid to pidFile and
// blocks for good (the CLI refuses a bare `sleep 1000`); it needs nothing
// but a POSIX shell and coreutils.
func sleeper(pidFile string) string {
	return `sh -c 'echo $$ > ` + pidFile + `; exec tail -f /dev/null'`
}

// waitPID waits for pidFile and returns the identity of the process it
// names.
func waitPID(t *testing.T, w *world, pidFile string) proc.Identity {
	t.Helper()
	var id proc.Identity
	w.until("the tool's process to write "+pidFile, func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return false
		}
		id, err = proc.Of(pid)
		return err == nil
	})
	return id
}

// S5: claude is SIGKILLed in the middle of a tool call. The supervisor
// counts a crash, sweeps the tool's process (orphaned in a session of its
// own, which no process-group kill reaches) and resumes the conversation.
func TestS5SigkillMidToolResumesAndSweeps(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("s5", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	pidFile := filepath.Join(w.tmp, "tool.pid")
	tm.typeLine(pane, "run: "+sleeper(pidFile))
	tool := waitPID(t, w, pidFile)
	claudeID := agentPID(t, w)
	starts := len(w.agentStarts())
	if err := syscall.Kill(claudeID.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}

	w.until("a new agent", func() bool { return len(w.agentStarts()) > starts })
	args := w.agentStarts()[starts]
	if i := slices.Index(args, "--resume"); i < 0 || args[i+1] != conv {
		t.Fatalf("after the SIGKILL the agent started with %q, want --resume %s", args, conv)
	}
	w.until("the tool's process to be swept", func() bool { return !proc.Alive(tool) })
	w.session("X", "the resumed conversation to be running", func(st *state.State) bool {
		return st.Lifecycle == state.Active && st.SessionID == conv && st.PID == sup.PID
	})
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	if left := leftovers(sup); len(left) != 0 {
		t.Fatalf("left behind: %+v", left)
	}
}

// Orphan sweep: a process the Bash tool detached with setsid outlives even
// a clean exit of claude (docs/design.md#what-we-rely-on-from-the-agent-clis).
// After a restart it is gone, before the fresh claude starts beside it.
func TestOrphanSweepAfterRestart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("orphan", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" })

	pidFile := filepath.Join(w.tmp, "detached.pid")
	tm.typeLine(pane, "run: setsid "+sleeper(pidFile)+" > /dev/null 2>&1 &")
	detached := waitPID(t, w, pidFile)
	if info, err := proc.List(); err == nil {
		for _, p := range info {
			if p.PID == detached.PID && p.SID != p.PID {
				t.Fatalf("the sleeper is not in a session of its own: %+v", p)
			}
		}
	}
	starts := len(w.agentStarts())
	conv := lastTurnID(w)
	tm.typeLine(pane, "run: superclaude +session restart")
	w.until("the fresh agent", func() bool { return len(w.agentStarts()) > starts })
	if proc.Alive(detached) {
		t.Fatalf("the detached process (pid %d) survived the restart", detached.PID)
	}
	w.session("X", "the fresh conversation to be bound", func(st *state.State) bool {
		return st.SessionID != "" && st.SessionID != conv
	})
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
