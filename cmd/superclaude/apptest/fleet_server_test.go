package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// clientSessions lists the sessions the server's clients show.
func (w *fleetWorld) clientSessions() string {
	out, _ := w.Tmux("list-clients", "-F", "#{client_session}")
	return out
}

// TestUpAttachSwitchesTheClientInsideTmux: `+up --attach` run inside tmux
// failed (tmux refuses to nest an attach); it now switches the client to
// the fleet, as tmuxinator does. Outside tmux it attaches.
func TestUpAttachSwitchesTheClientInsideTmux(t *testing.T) {
	w := newWorld(t)
	w.writeFleet(window("main") + pane("A"))

	// A person's terminal, attached to session "outer".
	if out, err := w.Tmux("new-session", "-d", "-s", "outer", "cat"); err != nil {
		t.Fatal(err, out)
	}
	testbin.StartPTY(t, w.TmuxCmd("-S", w.Sock, "attach-session", "-t", "=outer"))
	w.waitFor("a client on outer", func() bool { return w.clientSessions() == "outer" })

	// In its pane, +up --attach (tmux sets $TMUX there).
	rc := filepath.Join(w.Dir, "rc")
	script := filepath.Join(w.Dir, "attach.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n'"+w.Bin+"' +up '"+w.File+"' --attach > '"+rc+".out' 2>&1\necho $? > '"+rc+".tmp'; mv '"+rc+".tmp' '"+rc+"'\nexec cat\n"), 0o700)
	if out, err := w.Tmux("respawn-pane", "-k", "-t", "=outer:", script); err != nil {
		t.Fatal(err, out)
	}
	w.waitFor("+up --attach to finish", func() bool { _, err := os.Stat(rc); return err == nil })
	b, _ := os.ReadFile(rc)
	out, _ := os.ReadFile(rc + ".out")
	if strings.TrimSpace(string(b)) != "0" {
		t.Fatalf("+up --attach inside tmux exited %s:\n%s", b, out)
	}
	if got := w.clientSessions(); got != "work" {
		t.Errorf("the client shows %q after +up --attach, want work", got)
	}
	w.waitBound(1)

	// Outside tmux: attaches, on a terminal of its own.
	w.SC("+down", w.File)
	cmd := exec.Command(w.Bin, "+up", w.File, "--attach")
	cmd.Dir, cmd.Env = w.Dir, w.Env
	testbin.StartPTY(t, cmd)
	w.waitFor("a client on the fleet", func() bool { return strings.Contains(w.clientSessions(), "work") })
	w.waitBound(1)
	w.SC("+down", w.File)
}

// TestTmuxSocketIsANameOrAPath: `--tmux-socket NAME` was taken as a path,
// leaving a socket file in the current directory. A name now selects a
// server as tmux -L does; a value with a '/' is a path (tmux -S). The
// fleet file can name its server (key socket), and then `+down FILE`
// finds it with nothing repeated.
func TestTmuxSocketIsANameOrAPath(t *testing.T) {
	w := newWorld(t)
	// No default server from the environment: only the flag and the file.
	env := w.Env[:0:0]
	for _, kv := range w.Env {
		if !strings.HasPrefix(kv, "SUPERCLAUDE_TMUX_SOCKET=") {
			env = append(env, kv)
		}
	}
	w.Env = env
	w.StartServer("-L", "scfleet")
	w.StartServer("-L", "scother")
	onServer := func(name string) bool {
		return w.TmuxCmd("-L", name, "has-session", "-t", "=work").Run() == nil
	}

	// The file names the server.
	w.writeFleet(`socket = "scfleet"` + "\n" + window("main") + pane("A"))
	w.SC("+up", w.File)
	if !onServer("scfleet") {
		t.Fatalf("the fleet is not on the server named by its file")
	}
	w.waitBound(1)
	if out := w.SC("+down", w.File); !strings.Contains(out, "1 supervisor stopped") {
		t.Errorf("+down FILE with the server in the file: %s", out)
	}
	if onServer("scfleet") {
		t.Errorf("+down FILE left the fleet on the file's server")
	}

	// The flag names a server by name; it wins over the file.
	w.SC("+up", w.File, "--tmux-socket", "scother")
	if !onServer("scother") || onServer("scfleet") {
		t.Errorf("--tmux-socket scother did not select the server named scother")
	}
	if _, err := os.Stat(filepath.Join(w.Dir, "scother")); err == nil {
		t.Errorf("--tmux-socket NAME made a socket file in the current directory")
	}
	w.waitBound(1)
	w.SC("+down", "work", "--tmux-socket", "scother")

	// And by path.
	w.SC("+up", w.File, "--tmux-socket", w.Sock)
	if _, err := w.Tmux("has-session", "-t", "=work"); err != nil {
		t.Errorf("--tmux-socket PATH did not select that socket")
	}
	w.waitBound(1)
	w.SC("+down", w.File, "--tmux-socket", w.Sock)
	w.nothingLeft(w.starts())
}
