package fleet

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Regression: +down keeps a fleet's record, marked down (so that a fleet
// that is simply down is told from a name that never was one), and each
// supervisor's sweep spares the servers the records name. A down fleet's
// server, still running for other sessions, must not be spared: its
// record names it no longer.
func TestServersSparesNoDownFleet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fleets")
	me, err := proc.Of(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	path, err := recordPath(dir, "work")
	if err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(dir, path, Record{Name: "work", Socket: "/tmp/tmux-0/work", Up: time.Now().UTC(), Server: me}); err != nil {
		t.Fatal(err)
	}
	if got := Servers(dir); len(got) != 1 || got[0] != me {
		t.Fatalf("an up fleet's server: Servers = %v, want %v", got, me)
	}
	MarkDown(dir, "work", "")
	if got := Servers(dir); len(got) != 0 {
		t.Errorf("a down fleet's server is still spared: %v", got)
	}
	if !WasFleet(dir, "work") {
		t.Error("the down fleet's record is gone")
	}
}
