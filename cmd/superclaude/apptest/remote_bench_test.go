package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/dashboard"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/sshworld"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// hostsBench is this machine and other hosts over a real sshd on
// loopback (testkit/sshworld), each with sessions of its own, and the
// record that makes +status look at the hosts.
type hostsBench struct {
	bin, dir, rt, state string
	env                 []string
	ssh                 *sshworld.Server
	hosts               []string
}

// benchSessions writes n sessions' state files into root with write (a
// file as the user it belongs to).
func benchSessions(n int, prefix string, write func(rel string, data []byte)) {
	for i := range n {
		name := fmt.Sprintf("2026_11_25_%sS%03d", prefix, i)
		write(filepath.Join(name, state.StateFile), fmt.Appendf(nil,
			`{"pid":0,"skill":"implement","lifecycle":"active","fleetPaneId":"fleet:w:%s%d","startedAt":"2026-11-25T14:30:00Z","sessionId":"conv-%s%d","contextUsage":0.3}`, prefix, i, prefix, i))
	}
}

func newHostsBench(b *testing.B, hosts, sessions int) *hostsBench {
	b.Helper()
	s := sshworld.Start(b)
	h := &hostsBench{bin: testbin.Superclaude(b), dir: b.TempDir(), ssh: s}
	rt, err := os.MkdirTemp("", "sc-bench-") // short: the shared connections' sockets
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(rt) })
	h.rt, h.state = rt, filepath.Join(h.dir, "state")
	benchSessions(sessions, "here", func(rel string, data []byte) {
		p := filepath.Join(h.state, "sessions", rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, data, 0o600)
	})
	rec := remote.Hosts{File: filepath.Join(h.state, remote.HostsFile)}
	for i := range hosts {
		u := s.AddUser(fmt.Sprintf("h%d", i+1))
		u.Install(h.bin, "superclaude")
		benchSessions(sessions, u.Alias, func(rel string, data []byte) {
			u.WriteFile(filepath.Join(".local/state/superclaude/sessions", rel), data, 0o600)
		})
		rec.AddFleet(u.Alias, "/bench/fleet.toml")
		h.hosts = append(h.hosts, u.Alias)
	}
	elsewhere := filepath.Join(h.dir, "elsewhere")
	os.MkdirAll(elsewhere, 0o700)
	h.env = append(os.Environ(), "PATH="+s.Bin+":"+os.Getenv("PATH"), "SUPERCLAUDE_STATE_DIR="+h.state,
		"XDG_RUNTIME_DIR="+rt, "SUPERCLAUDE_SESSIONS_DIR=", "TMUX=", "TMUX_PANE=")
	h.dir = elsewhere
	return h
}

// status runs +status --json with args and checks its row count once.
func (h *hostsBench) status(b *testing.B, rows int, args ...string) func() {
	return func() {
		cmd := exec.Command(h.bin, append([]string{"+status", "--json"}, args...)...)
		cmd.Dir, cmd.Env = h.dir, h.env
		out, err := cmd.Output()
		var got []map[string]any
		if err != nil || json.Unmarshal(out, &got) != nil || len(got) != rows {
			b.Fatalf("+status --json %v: %v, %d rows, want %d:\n%s", args, err, len(got), rows, out)
		}
		for _, r := range got {
			if r["state"] == "unreachable" {
				b.Fatalf("+status --json %v: a host did not answer: %v", args, r)
			}
		}
	}
}

// timeEach runs run b.N times, each after setup (not timed), and reports
// the median and the 90th percentile.
func timeEach(b *testing.B, setup, run func()) {
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		setup()
		b.StartTimer()
		start := time.Now()
		run()
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[int(0.9*float64(len(d)-1))].Microseconds())/1000, "p90-ms")
}

// BenchmarkStatusAcrossHosts is `superclaude +status --json` over 20
// sessions here and 20 on each of 3 hosts reached over ssh on loopback,
// beside the same +status of this machine alone (--local), in one run:
// with the hosts' shared connections up (goal: at most 2× this machine's
// alone), and cold, each connection ended before each run (the first
// view after a while away). Its floor is OpenSSH's own: `ssh HOST true`
// over the shared connection, one host, and three at once (what a
// request to each host costs before superclaude does anything there).
func BenchmarkStatusAcrossHosts(b *testing.B) {
	const n = 20
	h := newHostsBench(b, 3, n)
	nothing := func() {}
	b.Run("local", func(b *testing.B) { timeEach(b, nothing, h.status(b, n, "--local")) })
	b.Run("hosts=3/shared", func(b *testing.B) {
		h.status(b, 4*n)() // the connections are made here, untimed
		timeEach(b, nothing, h.status(b, 4*n))
	})
	b.Run("hosts=3/cold", func(b *testing.B) {
		timeEach(b, func() { sshworld.KillControlMasters(h.rt) }, h.status(b, 4*n))
	})
	h.status(b, 4*n)() // the shared connections again
	sshTrue := func(host string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(h.ssh.Bin, "ssh"), "-o", "ControlMaster=auto",
			"-o", "ControlPath="+filepath.Join(h.rt, "superclaude", "ssh", "%C"), "-o", "ControlPersist=600", "-T", "--", host, "true")
		cmd.Env = h.env
		return cmd
	}
	b.Run("floor/ssh-true-shared", func(b *testing.B) {
		timeEach(b, nothing, func() {
			if out, err := sshTrue(h.hosts[0]).CombinedOutput(); err != nil {
				b.Fatalf("ssh true: %v %s", err, out)
			}
		})
	})
	b.Run("floor/ssh-true-shared-hosts=3", func(b *testing.B) {
		timeEach(b, nothing, func() {
			var cmds []*exec.Cmd
			for _, host := range h.hosts {
				c := sshTrue(host)
				c.Start()
				cmds = append(cmds, c)
			}
			for _, c := range cmds {
				if err := c.Wait(); err != nil {
					b.Fatalf("ssh true: %v", err)
				}
			}
		})
	})
}

// versionOf is the version superclaude bin answers +remote requests of:
// what a client of it must send.
func versionOf(b *testing.B, bin string) string {
	cmd := exec.Command(bin, remote.ServeCommand)
	cmd.Stdin = strings.NewReader(`{"version":"?","op":"?"}`)
	out, err := cmd.Output()
	var r remote.Reply
	if err != nil || json.Unmarshal(bytes.TrimSpace(out), &r) != nil || r.Version == "" {
		b.Fatalf("superclaude +remote: %v %s", err, out)
	}
	return r.Version
}

// BenchmarkDashboardRefreshWithAHostDown is one refresh of the
// dashboard's source (HostsSource.Rows: this machine's 20 sessions read,
// the hosts' readings started in the background and their last answers
// added) over two hosts: both answering, and one answering with one that
// takes connections and never speaks (ssh waits for it until the
// reading's deadline). The two sources refresh in turn, 100 ms apart, so
// that the machine's load weighs on both alike; each reports its median
// and 90th percentile. Goal: no slower with the host down.
func BenchmarkDashboardRefreshWithAHostDown(b *testing.B) {
	const n = 20
	h := newHostsBench(b, 2, n)
	h.ssh.AddSilentHost("silent")
	b.Setenv("PATH", h.ssh.Bin+":"+os.Getenv("PATH"))
	version := versionOf(b, h.bin)
	ssh := &remote.SSH{ControlDir: filepath.Join(h.rt, "ssh")}
	os.Mkdir(ssh.ControlDir, 0o700)
	local := dashboard.NewStoreSource(dashboard.StoreConfig{IndexDir: filepath.Join(h.state, "index"), Roots: []string{filepath.Join(h.state, "sessions")}})
	source := func(hosts ...string) *dashboard.HostsSource {
		return &dashboard.HostsSource{Local: local, Hosts: dashboard.Hosts{
			Hosts:   hosts,
			Timeout: 2 * time.Second,
			Call: func(ctx context.Context, host, op string, args, result any) error {
				return (&remote.Client{SSH: ssh, Host: host, Version: version}).Call(ctx, op, args, result)
			},
		}}
	}
	ctx := context.Background()
	up, down := source("h1", "h2"), source("h1", "silent")
	for _, c := range []struct {
		src  *dashboard.HostsSource
		rows int
	}{{up, 3 * n}, {down, 2 * n}} {
		deadline := time.Now().Add(30 * time.Second)
		for {
			snap, err := c.src.Rows(ctx)
			if err == nil && len(snap.Rows) == c.rows {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("the hosts' rows never came: %d rows, %v", len(snap.Rows), snap.Unreachable)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var dUp, dDown []time.Duration
	refresh := func(src *dashboard.HostsSource, into *[]time.Duration) {
		time.Sleep(100 * time.Millisecond)
		start := time.Now()
		if _, err := src.Rows(ctx); err != nil {
			b.Fatal(err)
		}
		*into = append(*into, time.Since(start))
	}
	b.ResetTimer()
	for range b.N {
		refresh(up, &dUp)
		refresh(down, &dDown)
	}
	b.StopTimer()
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"both-up", dUp}, {"one-down", dDown}} {
		sort.Slice(m.d, func(i, j int) bool { return m.d[i] < m.d[j] })
		b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, "p50-ms-"+m.name)
		b.ReportMetric(float64(m.d[int(0.9*float64(len(m.d)-1))].Microseconds())/1000, "p90-ms-"+m.name)
	}
}
