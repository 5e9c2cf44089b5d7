package proc

import (
	"os/exec"
	"testing"
)

// A child the caller keeps (the session leader a terminal keeps between
// agents) does not count as something an agent left: with it alone, the
// sweep after an agent has nothing to look for, and walks nothing; any
// other child counts.
func TestHasChildrenButLeavesTheKeptOnesOut(t *testing.T) {
	start := func() *exec.Cmd {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	kept := start().Process.Pid
	keep := func(pid int) bool { return pid == kept }
	if HasChildrenBut(keep) {
		t.Fatal("the kept child alone counted")
	}
	if !HasChildrenBut(nil) || !HasChildren() {
		t.Fatal("a child was not seen")
	}
	start()
	if !HasChildrenBut(keep) {
		t.Fatal("a child not kept was not seen")
	}
}
