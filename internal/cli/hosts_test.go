package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// A table of this machine's sessions alone has no HOST column; one with
// another host's has, "local" for this machine's rows, and a host that did
// not answer is one line that says so, with its last good answer.
func TestTableShowsHosts(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	local := SessionView{Name: "a", Pane: "fl:here:L", State: Running, Lifecycle: "active"}
	var b bytes.Buffer
	WriteTable(&b, []SessionView{local}, now)
	if strings.Contains(b.String(), "HOST") {
		t.Fatalf("a table of this machine alone has a HOST column:\n%s", b.String())
	}
	there := SessionView{Name: "b", Pane: "fl:there:R", State: Running, Lifecycle: "active", Host: "me@box"}
	down := HostDown("me@far", errors.New("ssh: connect to host far port 22: Connection refused"), now.Add(-3*time.Minute))
	never := HostDown("me@new", errors.New("Host key verification failed."), time.Time{})
	b.Reset()
	WriteTable(&b, []SessionView{local, there, down, never}, now)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "HOST") {
		t.Fatalf("table:\n%s", b.String())
	}
	for i, want := range []string{"local", "me@box", "me@far", "me@new"} {
		if !strings.HasPrefix(lines[i+1], want+" ") {
			t.Errorf("row %d does not start with host %s: %q", i+1, want, lines[i+1])
		}
	}
	if !strings.Contains(lines[3], "UNREACHABLE") || !strings.Contains(lines[3], "(3m ago)") || !strings.Contains(lines[3], "Connection refused") {
		t.Errorf("the unreachable host's line: %q", lines[3])
	}
	if !strings.Contains(lines[4], "never answered") {
		t.Errorf("a host that never answered: %q", lines[4])
	}
	// The unreachable line does not widen the columns of the others.
	if strings.Index(lines[1], "fl:here:L") != strings.Index(lines[2], "fl:there:R") {
		t.Errorf("the rows' columns do not line up:\n%s", b.String())
	}
}
