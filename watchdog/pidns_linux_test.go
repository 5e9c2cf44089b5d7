package watchdog

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// unshareNoFork is unshare(1) making a new PID namespace whose first
// process is the first child of the program it runs (no --fork): as root,
// else in a user namespace of the test's own.
func unshareNoFork(t *testing.T) []string {
	t.Helper()
	for _, argv := range [][]string{{"unshare", "--pid"}, {"unshare", "--user", "--map-root-user", "--pid"}} {
		if (argv[1] == "--pid") != (os.Getuid() == 0) {
			continue
		}
		if exec.Command(argv[0], append(argv[1:], "sh", "-c", "true &")...).Run() == nil {
			return argv
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("unshare cannot make a PID namespace here, in CI")
	}
	t.Skip("unshare cannot make a PID namespace here (not root, and no user namespaces)")
	return nil
}

// findCmdline returns the processes whose command line is argv.
func findCmdline(argv ...string) []proc.Identity {
	want := []byte{}
	for _, a := range argv {
		want = append(append(want, a...), 0)
	}
	entries, _ := os.ReadDir("/proc")
	var out []proc.Identity
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); bytes.Equal(b, want) {
			if id, err := proc.Of(pid); err == nil {
				out = append(out, id)
			}
		}
	}
	return out
}

// Attack: a tool that starts its process in a PID namespace of its own
// (`unshare --pid sh -c 'cmd &'`, as a sandbox may) and lets the process
// on this side exit leaves that process — the new namespace's first, its
// supervisor's marker carried in from the tool — outside every sweep: its
// namespace is not the supervisor's, and a marker there was taken for a
// container's, naming a PID of the container's own. After its supervisor
// died with SIGKILL it ran for ever. It is ended by the next sweep; a
// container's agent still is not
// (TestASweepOnTheHostLeavesAContainersAgentAlone, in apptest).
func TestAttackLeftoverInANewPIDNamespaceIsSweptAfterItsSupervisorDied(t *testing.T) {
	unshare := unshareNoFork(t)
	rt, err := os.MkdirTemp("", "sc-pidns-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(envvar.Supervisor, "")

	sup := exec.Command("sleep", "1000")
	if err := sup.Start(); err != nil {
		t.Fatal(err)
	}
	supID, err := proc.Of(sup.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// The tool leaves: its own process exits, the one in the new
	// namespace is orphaned out of the test's tree.
	tool := exec.Command("setsid", append(unshare, "sh", "-c", "sleep 3031 >/dev/null 2>&1 &")...)
	tool.Env = append(os.Environ(), envvar.Supervisor+"="+supID.String())
	if err := tool.Run(); err != nil {
		t.Fatal(err)
	}
	var left []proc.Identity
	for deadline := time.Now().Add(5 * time.Second); len(left) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		left = findCmdline("sleep", "3031")
	}
	if len(left) != 1 {
		t.Fatalf("the tool's process: %v", left)
	}
	t.Cleanup(func() { proc.Signal(left[0], syscall.SIGKILL) })
	own, _ := os.Readlink("/proc/self/ns/pid")
	if ns, _ := os.Readlink("/proc/" + strconv.Itoa(left[0].PID) + "/ns/pid"); ns == own || ns == "" {
		t.Fatalf("the tool's process is in this PID namespace (%s)", ns)
	}

	sup.Process.Kill()
	sup.Wait()
	SweepPredecessors(context.Background(), 500*time.Millisecond, nil)
	for deadline := time.Now().Add(3 * time.Second); proc.Alive(left[0]) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if proc.Alive(left[0]) {
		t.Fatalf("the dead supervisor's leftover %d, in a PID namespace a tool made, survived the sweep", left[0].PID)
	}
}
