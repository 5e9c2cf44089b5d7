package handover

import (
	"strconv"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// TestSelfMarkerIsProcsIdentity: the marker runPrint gives the agent is the
// one main's sweep looks for, proc.Self's, written out by hand here because
// this package cannot import package proc (see the package comment).
func TestSelfMarkerIsProcsIdentity(t *testing.T) {
	got, ok := selfMarker()
	self, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	if !ok || got != self.String() {
		t.Fatalf("selfMarker() = %q, %v; proc.Self() is %q", got, ok, self.String())
	}
}

func TestItoa(t *testing.T) {
	for _, n := range []int{0, 7, 10, 4194304, 1<<62 + 3} {
		if got, want := itoa(n), strconv.Itoa(n); got != want {
			t.Errorf("itoa(%d) = %q; want %q", n, got, want)
		}
	}
}
