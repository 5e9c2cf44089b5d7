package dashboard

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/proc"
)

// tmuxWorld is a private tmux server: a session "work" with a window
// "main" (pane labelled A) and a window "side" (pane labelled B), each
// running cat, and a session "other" for a client to look at.
type tmuxWorld struct {
	t    *testing.T
	sock string
	// panes maps a label to its pane id (%N) and its process.
	panes map[string]paneOf
}

type paneOf struct {
	id  string
	pid proc.Identity
}

func tmuxEnv() []string {
	return append(os.Environ(), "TMUX=", "TMUX_PANE=")
}

func newTmuxWorld(t *testing.T) *tmuxWorld {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): the attach tests need a real tmux")
	}
	rt, err := os.MkdirTemp("", "sc-dash-")
	if err != nil {
		t.Fatal(err)
	}
	w := &tmuxWorld{t: t, sock: filepath.Join(rt, "tmux"), panes: map[string]paneOf{}}
	t.Cleanup(func() {
		w.cmd("kill-server").Run()
		os.RemoveAll(rt)
	})
	w.run("-f", "/dev/null", "new-session", "-d", "-s", "work", "-n", "main", "-x", "100", "-y", "30", "cat")
	w.run("new-window", "-d", "-t", "=work:", "-n", "side", "cat")
	w.run("new-session", "-d", "-s", "other", "-x", "100", "-y", "30", "cat")
	for _, l := range []struct{ window, label string }{{"main", "A"}, {"side", "B"}} {
		target := "=work:" + l.window
		w.run("set-option", "-p", "-t", target, "@pane_label", l.label)
		var pid int
		id := w.run("display-message", "-p", "-t", target, "#{pane_id}")
		fmt.Sscan(w.run("display-message", "-p", "-t", target, "#{pane_pid}"), &pid)
		ident, err := proc.Of(pid)
		if err != nil {
			t.Fatal(err)
		}
		w.panes[l.label] = paneOf{id: id, pid: ident}
	}
	return w
}

func (w *tmuxWorld) cmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-S", w.sock}, args...)...)
	c.Env = tmuxEnv()
	return c
}

func (w *tmuxWorld) run(args ...string) string {
	w.t.Helper()
	out, err := w.cmd(args...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// attachClient attaches a tmux client, on a pty, to session; it returns
// the client's tty.
func (w *tmuxWorld) attachClient(session string) string {
	w.t.Helper()
	c := w.cmd("attach-session", "-t", "="+session)
	c.Env = append(c.Env, "TERM=xterm-256color")
	f, err := pty.StartWithSize(c, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		w.t.Fatal(err)
	}
	go io.Copy(io.Discard, f)
	w.t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
		f.Close()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if tty := w.run("list-clients", "-F", "#{client_tty}"); tty != "" {
			return tty
		}
		if time.Now().After(deadline) {
			w.t.Fatal("the tmux client never attached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (w *tmuxWorld) row(label string) Row {
	p := w.panes[label]
	return Row{Session: "s-" + label, Pane: "work:" + map[string]string{"A": "main", "B": "side"}[label] + ":" + label, Supervisor: p.pid}
}

func TestAttachOutsideTmuxSelectsThePaneAndHandsBackTheAttachCommand(t *testing.T) {
	w := newTmuxWorld(t)
	// Neither the dashboard's own server nor a flag names the server: the
	// supervisor's environment does.
	src := NewStoreSource(StoreConfig{})
	cmd, err := src.Attach(context.Background(), w.row("B"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint([]string{"tmux", "-S", w.sock, "attach-session", "-t", w.panes["B"].id})
	if cmd == nil || fmt.Sprint(cmd.Args) != want {
		t.Fatalf("attach command %v, want %s", cmd, want)
	}
	if got := w.run("display-message", "-p", "-t", "=work:", "#{window_name}:#{pane_id}"); got != "side:"+w.panes["B"].id {
		t.Fatalf("the session's current pane is %s, want side:%s", got, w.panes["B"].id)
	}
}

func TestAttachInsideTmuxSwitchesThisClientToThePane(t *testing.T) {
	w := newTmuxWorld(t)
	tty := w.attachClient("other")
	dashPane := w.run("display-message", "-p", "-t", "=other:", "#{pane_id}")
	src := NewStoreSource(StoreConfig{Client: w.sock + ",1,0", ClientPane: dashPane})
	for _, label := range []string{"B", "A"} {
		cmd, err := src.Attach(context.Background(), w.row(label))
		if err != nil || cmd != nil {
			t.Fatalf("attach %s: %v %v", label, cmd, err)
		}
		want := fmt.Sprintf("%s work %s", tty, w.panes[label].id)
		if got := w.run("list-clients", "-F", "#{client_tty} #{client_session} #{pane_id}"); got != want {
			t.Fatalf("after attach %s the client shows %q, want %q", label, got, want)
		}
	}
}

func TestAttachFindsAStoppedSessionsPaneByItsLabel(t *testing.T) {
	w := newTmuxWorld(t)
	row := w.row("A")
	row.Supervisor = proc.Identity{PID: row.Supervisor.PID, Start: row.Supervisor.Start + 1} // gone
	src := NewStoreSource(StoreConfig{})
	if _, err := src.Attach(context.Background(), row); err == nil || !strings.Contains(err.Error(), "--tmux-socket") {
		t.Fatalf("found a pane on no known server: %v", err)
	}
	src = NewStoreSource(StoreConfig{Tmux: nil, Client: w.sock + ",1,0"})
	srv, pane, err := src.findPane(row)
	if err != nil || pane != w.panes["A"].id || srv.Path != w.sock {
		t.Fatalf("findPane = %v %s %v, want %s on %s", srv, pane, err, w.panes["A"].id, w.sock)
	}
}

func TestAttachToAnUnlabelledPaneChecksItsServer(t *testing.T) {
	w := newTmuxWorld(t)
	start := w.run("display-message", "-p", "-t", "=work:", "#{start_time}")
	id := w.panes["A"].id
	src := NewStoreSource(StoreConfig{})
	srv, pane, err := src.findPane(Row{Pane: id + "@" + w.sock + "@" + start})
	if err != nil || pane != id || srv.Path != w.sock {
		t.Fatalf("findPane = %v %s %v", srv, pane, err)
	}
	for _, bad := range []string{id + "@" + w.sock + "@1", "=work:@" + w.sock + "@" + start, id + "@relative@" + start} {
		if _, _, err := src.findPane(Row{Pane: bad}); err == nil {
			t.Errorf("findPane(%q) succeeded", bad)
		}
	}
}

// Regression, issue 19: the dashboard, run inside the person's tmux,
// refused to attach a pane on another server (a fleet on its own socket).
// It now hands back a client of that server to nest in its own pane.
func TestAttachInsideAnotherTmuxServerNestsAClient(t *testing.T) {
	w := newTmuxWorld(t)
	other := filepath.Join(t.TempDir(), "outer")
	if out, err := exec.Command("tmux", "-S", other, "-f", "/dev/null", "new-session", "-d", "cat").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", other, "kill-server").Run() })
	src := NewStoreSource(StoreConfig{Client: other + ",1,0"})
	cmd, err := src.Attach(context.Background(), w.row("A"))
	if err != nil || cmd == nil {
		t.Fatalf("attach across servers: %v %v", cmd, err)
	}
	if got := strings.Join(cmd.Args, " "); !strings.HasPrefix(got, "tmux -S "+w.sock+" attach-session -t "+w.panes["A"].id) {
		t.Fatalf("attach across servers runs %q", got)
	}
}
