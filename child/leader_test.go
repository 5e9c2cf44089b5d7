package child

import (
	"strings"
	"testing"
)

// TestAStartTheLeaderCannotDoIsReported: the leader's own start of the
// agent fails (its directory is missing); Start says so, with the code a
// start without a leader gives (Go reports a failed chdir as ENOENT: 127),
// and nothing is left running or owned.
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
	owned.RLock()
	n := len(owned.pids)
	owned.RUnlock()
	if n != 0 {
		t.Fatalf("%d children still registered as owned", n)
	}
}
