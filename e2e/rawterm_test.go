package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Issue 9: a superclaude killed with SIGKILL leaves the terminal raw, and
// the next start could say so. bash puts a killed job's terminal back
// (measured); a shell that does not leaves it as `stty raw -echo` does
// here. superclaude started from that raw terminal runs claude as usual,
// and at the end leaves the terminal cooked, not raw "as it found it", and
// says what happened once the terminal is restored.
func TestATerminalLeftRawIsCookedAfterTheNextRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("raw", "main", "")
	tm.send(pane, "stty raw -echo; superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	tm.waitScreen(pane, "was in raw mode when superclaude started")

	out := filepath.Join(w.tmp, "stty.out")
	tm.send(pane, "stty -a > "+out)
	var modes []byte
	w.until("stty -a to run", func() bool { b, err := os.ReadFile(out); modes = b; return err == nil && len(b) > 0 })
	for _, flag := range []string{"icanon", "echo", "isig", "icrnl", "opost"} {
		if !regexp.MustCompile(`(^|\s)` + flag + `(\s|$)`).Match(modes) {
			t.Fatalf("after superclaude the terminal lacks %s:\n%s", flag, modes)
		}
	}
}
