package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixedSource is a Source of fixed rows that records the actions asked of
// it.
type fixedSource struct {
	rows []Row
	mu   sync.Mutex
	did  []string
}

func (f *fixedSource) Rows(ctx context.Context) (Snapshot, error) {
	return Snapshot{Rows: append([]Row(nil), f.rows...), At: time.Now()}, nil
}
func (f *fixedSource) note(what string, r Row) {
	f.mu.Lock()
	f.did = append(f.did, what+" "+r.Host+":"+r.Dir)
	f.mu.Unlock()
}
func (f *fixedSource) Restart(ctx context.Context, r Row, fresh bool) (bool, error) {
	f.note(map[bool]string{false: "restart", true: "fresh"}[fresh], r)
	return true, nil
}
func (f *fixedSource) Stop(ctx context.Context, r Row) error { f.note("stop", r); return nil }
func (f *fixedSource) Why(ctx context.Context, r Row) ([]string, error) {
	f.note("why", r)
	return []string{"local why"}, nil
}
func (f *fixedSource) Attach(ctx context.Context, r Row) (*exec.Cmd, error) {
	f.note("attach", r)
	return nil, nil
}

// fakeHosts answers as hosts would: "box" with one row once let go,
// "gone" never (it fails at once), and records each request.
type fakeHosts struct {
	release chan struct{}
	mu      sync.Mutex
	calls   []string
}

func (f *fakeHosts) call(ctx context.Context, host, op string, args, result any) error {
	f.mu.Lock()
	b, _ := json.Marshal(args)
	f.calls = append(f.calls, host+" "+op+" "+string(b))
	f.mu.Unlock()
	if host == "gone" {
		return errors.New("ssh: connect to host gone port 22: Connection refused")
	}
	select {
	case <-f.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	var out any
	switch op {
	case OpRows:
		out = Snapshot{Rows: []Row{{Session: "r", Dir: "/home/me/s/r", Pane: "fl:there:R", Status: Running}}}
	case OpRestart:
		out = false
	case OpWhy:
		out = []string{"remote why"}
	case OpAttach:
		out = []string{"tmux", "-S", "/tmp/tmux-1000/default", "attach-session", "-t", "%3"}
	default:
		out = true
	}
	b, _ = json.Marshal(out)
	return json.Unmarshal(b, result)
}

// A reading never waits for a host: this machine's rows come at once, a
// host's with the reading after it answered, one that does not answer is
// shown unreachable with its last good answer, and every action on a
// host's row goes to that host.
func TestHostsSourceNeverWaitsAndRoutesByHost(t *testing.T) {
	local := &fixedSource{rows: []Row{{Session: "l", Dir: "/home/me/s/r", Pane: "fl:here:L", Status: Running}}}
	fh := &fakeHosts{release: make(chan struct{})}
	var ran []string
	src := &HostsSource{Local: local, Hosts: Hosts{
		Hosts:   []string{"box", "gone"},
		Call:    fh.call,
		Timeout: time.Minute,
		Terminal: func(host string, argv []string) (*exec.Cmd, error) {
			ran = append([]string{"ssh", "-t", host}, argv...)
			return exec.Command("true"), nil
		},
	}}
	ctx := context.Background()
	start := time.Now()
	snap, err := src.Rows(ctx)
	if err != nil || len(snap.Rows) != 1 || snap.Rows[0].Host != "" || len(snap.Hosts) != 2 {
		t.Fatalf("first reading: %+v %v", snap, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("the first reading waited %v for the hosts", d)
	}
	close(fh.release)
	var got Snapshot
	deadline := time.Now().Add(10 * time.Second)
	for len(got.Rows) < 2 || len(got.Unreachable) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the hosts' answers never showed: %+v", got)
		}
		time.Sleep(5 * time.Millisecond)
		got, _ = src.Rows(ctx)
	}
	var there Row
	for _, r := range got.Rows {
		if r.Host == "box" {
			there = r
		}
	}
	if there.Dir != "/home/me/s/r" || there.Pane != "fl:there:R" {
		t.Fatalf("box's row: %+v", got.Rows)
	}
	if u := got.Unreachable[0]; !strings.HasPrefix(u, "gone: UNREACHABLE — it never answered") || !strings.Contains(u, "Connection refused") {
		t.Fatalf("the unreachable host's line: %q", u)
	}

	// Two rows of one directory, one per host, are two rows.
	if (Row{Dir: "/d"}).key() == (Row{Dir: "/d", Host: "box"}).key() {
		t.Fatal("a host's row and a local row of the same directory share a key")
	}

	if w, err := src.Restart(ctx, there, false); err != nil || w {
		t.Fatalf("restart on box: %v %v", w, err)
	}
	if lines, err := src.Why(ctx, there); err != nil || lines[0] != "remote why" {
		t.Fatalf("why on box: %v %v", lines, err)
	}
	if _, err := src.Attach(ctx, there); err != nil || strings.Join(ran, " ") != "ssh -t box tmux -S /tmp/tmux-1000/default attach-session -t %3" {
		t.Fatalf("attach on box ran %q, %v", ran, err)
	}
	src.Restart(ctx, local.rows[0], false)
	if strings.Join(local.did, ";") != "restart :/home/me/s/r" {
		t.Fatalf("the local source did %q; want only the local row's restart", local.did)
	}
	fh.mu.Lock()
	defer fh.mu.Unlock()
	for _, want := range []string{`box dashboard-restart {"row":`, `box dashboard-why {"row":`, `box dashboard-attach {"row":`} {
		found := false
		for _, c := range fh.calls {
			found = found || strings.HasPrefix(c, want)
		}
		if !found {
			t.Errorf("no request %q of box: %q", want, fh.calls)
		}
	}
}

// With other hosts, the list has a HOST column ("local" for this
// machine's rows), and a host that did not answer is said at the bottom.
func TestViewOfRowsOnTwoHosts(t *testing.T) {
	rows := []Row{
		{Session: "l", Dir: "/s/l", Pane: "fl:here:L", Status: Running, Lifecycle: "active"},
		{Host: "me@box", Session: "r", Dir: "/s/r", Pane: "fl:there:R", Status: Running, Lifecycle: "active"},
	}
	h := newHarness(t, nil)
	h.src.snap = Snapshot{Rows: rows, At: at, Hosts: []string{"me@box", "me@far"},
		Unreachable: []string{"me@far: UNREACHABLE — last good answer 11:57:00 (3m ago): Connection refused"}}
	h.keys("u")
	lines := strings.Split(h.m.View().Content, "\n")
	if !strings.HasPrefix(lines[1], "  HOST    SESSION") {
		t.Fatalf("header: %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "> local   l ") || !strings.HasPrefix(lines[3], "  me@box  r ") {
		t.Fatalf("rows:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(h.m.View().Content, "me@far: UNREACHABLE — last good answer 11:57:00 (3m ago)") {
		t.Fatalf("the unreachable host is not said:\n%s", h.m.View().Content)
	}
}
