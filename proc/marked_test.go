package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startAs starts sleep with env added, as uid (when not -1), and waits
// until it has exec'd (its environment is sleep's).
func startAs(t *testing.T, uid int, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.Env = append(os.Environ(), env...)
	if uid >= 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid)); err != nil || len(b) > 0 && string(b[:5]) == "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("sleep did not start")
		}
		time.Sleep(time.Millisecond)
	}
	return cmd
}

// Regression: on Linux the process table carries no owner, and root can
// read every process's environment, so another user's process that
// carries (forges) a supervisor's marker was found as the supervisor's —
// and the watchdog's sweep would kill it.
func TestAttackOtherUsersMarkedProcessIsNotOurs(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start a process as another user (as another user, its environment cannot be read at all)")
	}
	marker := fmt.Sprintf("m-%d-%d", os.Getpid(), time.Now().UnixNano())
	mine := startAs(t, -1, "PROC_TEST_MARKER="+marker)
	startAs(t, 65534, "PROC_TEST_MARKER="+marker)
	found, err := FindByEnv("PROC_TEST_MARKER", marker)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].PID != mine.Process.Pid {
		t.Fatalf("FindByEnv = %+v, want only pid %d (ours)", found, mine.Process.Pid)
	}
	marked, err := FindMarked("PROC_TEST_MARKER")
	if err != nil {
		t.Fatal(err)
	}
	if len(marked) != 1 || marked[0].PID != mine.Process.Pid || marked[0].Value != marker {
		t.Fatalf("FindMarked = %+v", marked)
	}
}
