package child

import (
	"strings"
	"testing"
)

// TestAStartTheLeaderCannotDoIsReported: the leader's own start of the
// agent fails (its directory is missing); Start says so, with the code a
// start without a leader gives (Go reports a failed chdir as ENOENT: 127).
// Nothing is left running or owned but the leader the terminal keeps for
// the next agent, which the next start uses, and which ends with Close.
func TestAStartTheLeaderCannotDoIsReported(t *testing.T) {
	tt, _ := userTerminal(t)
	sp := spec("exit=0")
	sp.Dir = "/nonexistent/dir"
	_, err := Start(sp, tt)
	if err == nil {
		t.Fatal("started in a missing directory")
	}
	if e := StartFailure(err); e.Code != 127 || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("StartFailure = %+v (%v)", e, err)
	}
	kept := tt.leaders.idle
	// The leaders of earlier tests' terminals end as those close, aside.
	eventually(t, "the other tests' leaders to end", func() bool { return ownedCount() <= 1 })
	if kept == nil || ownedCount() != 1 || !Owned(kept.cmd.Process.Pid) {
		t.Fatalf("%d children registered as owned; want the kept leader alone", ownedCount())
	}
	a, err := Start(spec("exit=3"), tt)
	if err != nil {
		t.Fatal(err)
	}
	if e := a.Wait(); e.Code != 3 || tt.leaders.idle != kept {
		t.Fatalf("the next agent: %+v; its leader kept again: %v", e, tt.leaders.idle == kept)
	}
	tt.Close()
	<-kept.exited
	if n := ownedCount(); n != 0 {
		t.Fatalf("%d children still registered as owned after Close", n)
	}
}

func ownedCount() int {
	owned.RLock()
	defer owned.RUnlock()
	return len(owned.pids)
}
