package hosts

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
)

// +status wrote nothing until every host had answered or timed out, so a
// host that swallows packets slowed this machine's view by the whole
// timeout. The table writes this machine's rows before any host's block
// has come, and each host's block as it comes.
func TestStatusWritesThisMachineBeforeTheHosts(t *testing.T) {
	local := []cli.SessionView{{Name: "a", Pane: "fl:here:L", State: cli.Running, Lifecycle: "active"}}
	hosts := make(chan []cli.SessionView)
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- writeStatus(w, local, hosts, false); w.Close() }()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		t.Helper()
		select {
		case l := <-lines:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no line written while the hosts had not answered")
			return ""
		}
	}
	if h := next(); !strings.HasPrefix(h, "HOST") {
		t.Fatalf("header %q", h)
	}
	if l := next(); !strings.HasPrefix(l, "local ") || !strings.Contains(l, "fl:here:L") {
		t.Fatalf("this machine's row %q", l)
	}
	hosts <- cli.OnHost([]cli.SessionView{{Name: "b", Pane: "fl:there:R", State: cli.Running, Lifecycle: "active"}}, "box")
	next() // the blank line between blocks
	next() // box's header
	if l := next(); !strings.HasPrefix(l, "box ") {
		t.Fatalf("box's row %q", l)
	}
	hosts <- []cli.SessionView{cli.HostDown("silent", errors.New("timed out"), time.Time{})}
	next()
	if l := next(); !strings.HasPrefix(l, "silent ") || !strings.Contains(l, "UNREACHABLE") {
		t.Fatalf("the silent host's line %q", l)
	}
	close(hosts)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// --json is one document, with every host's rows.
func TestStatusJSONIsOneDocument(t *testing.T) {
	hosts := make(chan []cli.SessionView, 2)
	hosts <- cli.OnHost([]cli.SessionView{{Name: "b"}}, "box")
	hosts <- []cli.SessionView{cli.HostDown("silent", errors.New("timed out"), time.Time{})}
	close(hosts)
	var b strings.Builder
	if err := writeStatus(&b, []cli.SessionView{{Name: "a"}}, hosts, true); err != nil {
		t.Fatal(err)
	}
	var rows []cli.SessionView
	if err := json.Unmarshal([]byte(b.String()), &rows); err != nil || len(rows) != 3 || rows[2].Host != "silent" {
		t.Fatalf("%v %+v\n%s", err, rows, b.String())
	}
	// This machine alone: no hosts to wait for.
	b.Reset()
	if err := writeStatus(&b, []cli.SessionView{{Name: "a"}}, nil, true); err != nil || !strings.Contains(b.String(), `"name":"a"`) {
		t.Fatalf("%v\n%s", err, b.String())
	}
}
