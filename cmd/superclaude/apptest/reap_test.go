package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnAgentThatExitsAtOnceKeepsItsExitStatus is the bug "failed: waitid:
// no child processes": an agent that exited before the supervisor had
// recorded it was reaped by the SIGCHLD handler's orphan reaper, its status
// lost, and the supervisor took its clean exit for a crash and started it
// again (about 1 run in 20 here with true(1) as the agent). The reaper now
// leaves every child an Agent waits for alone from its fork on.
func TestAnAgentThatExitsAtOnceKeepsItsExitStatus(t *testing.T) {
	agent, err := exec.LookPath("true")
	if err != nil {
		t.Skip("true(1) is not installed: the race needs an agent that exits at once")
	}
	h := newHarness(t)
	const runs = 60
	for i := 0; i < runs; i++ {
		if err := h.command("+run", "--profile", "generic", "--agent", agent).Run(); err != nil {
			t.Fatalf("run %d: %v, want the agent's exit 0", i, err)
		}
	}
	log, _ := os.ReadFile(filepath.Join(h.dir, "state", "superclaude.log"))
	if n := strings.Count(string(log), `msg="agent started"`); n != runs {
		t.Fatalf("%d runs started the agent %d times: a lost exit status was taken for a crash\n%s", runs, n, log)
	}
}
