package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// TestPrintModeSweepsWhatItsToolLeft: `superclaude -p PROMPT | cat`, typed
// in a fresh pane where a skill's session is active, prints claude's answer
// and exits 0 as `claude -p` does; the process the answer's Bash tool
// detached with setsid, which would outlive `claude -p`, is gone when the
// command returns. A one-shot run is never supervised (no session, no
// restart) but keeps the sweep, which here comes after claude was started
// before superclaude's main (internal/handover), as in any plain shell.
func TestPrintModeSweepsWhatItsToolLeft(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("print", "main", "")
	if _, code := tm.runShell(pane, "superclaude +session activate sessions/notes notes"); code != 0 {
		t.Fatalf("activating a session exited %d", code)
	}
	pidFile := filepath.Join(w.tmp, "detached.pid")
	script := filepath.Join(w.tmp, "sleeper.sh") // no quotes to nest in the prompt
	if err := os.WriteFile(script, []byte(sleeper(pidFile)+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	// The tool waits for the detached process to have started.
	out, code := tm.runShell(pane, `superclaude -p "run: setsid sh `+script+` > /dev/null 2>&1 & while [ ! -s `+pidFile+
		` ]; do sleep 0.05; done" | cat`)
	if code != 0 || !strings.Contains(out, "done") {
		t.Fatalf("superclaude -p printed %q and exited %d; want claude's answer and 0", out, code)
	}
	b, err := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("the tool's detached process never started: %v %q", err, b)
	}
	if proc.PIDAlive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the process the tool detached (pid %d) outlived superclaude -p", pid)
	}
	log, _ := os.ReadFile(filepath.Join(w.state, "superclaude.log"))
	if !strings.Contains(string(log), "swept what the agent left") || !strings.Contains(string(log), `started="before main"`) {
		t.Errorf("no sweep after an agent started before main in the log:\n%s", log)
	}
	if names, _ := w.store().Names(); len(names) != 1 || names[0] != "notes" {
		t.Errorf("sessions after -p: %v, want only the skill's", names)
	}
}
