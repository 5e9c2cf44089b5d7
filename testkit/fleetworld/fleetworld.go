// Package fleetworld is the world of a fleet test: a private tmux server
// (its socket in a short temporary directory, no configuration file), the
// superclaude binary built for tests, and an environment that points
// superclaude at both and keeps its state in the test's directory. The
// fleet's and the dashboard's tests share it; what remains of a fleet when
// a test ends is killed.
package fleetworld

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// World is one fleet test's world.
type World struct {
	T *testing.T
	// Bin is the superclaude binary; Dir the test's working directory,
	// File its fleet file (not written), Log the fake agents' log, Sock
	// the tmux server's socket in RT, the runtime directory.
	Bin, Dir, File, Log, Sock, RT string
	// Env is the environment of every command the world runs, and of the
	// tmux server.
	Env []string
}

// Options change a world.
type Options struct {
	// Env is added to the world's environment.
	Env []string
	// Servers names tmux servers (-L) the test may start besides the
	// world's own, killed at the end.
	Servers []string
}

// New makes a world and starts its tmux server. It skips the test when
// tmux is not installed (.ci/run installs it).
func New(t *testing.T, o Options) *World {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): the fleet tests need a real tmux")
	}
	dir := t.TempDir()
	// A short directory of its own: a unix socket's path is limited to
	// about 100 bytes, which t.TempDir's can pass.
	rt, err := os.MkdirTemp("", "sc-fleet-")
	if err != nil {
		t.Fatal(err)
	}
	w := &World{T: t, Bin: testbin.Superclaude(t), Dir: dir, File: filepath.Join(dir, "fleet.toml"),
		Log: filepath.Join(dir, "agents.jsonl"), Sock: filepath.Join(rt, "tmux"), RT: rt}
	w.Env = append(os.Environ(), "SUPERCLAUDE_TMUX_SOCKET="+w.Sock, "XDG_RUNTIME_DIR="+rt, "TMUX_TMPDIR="+rt,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "TMUX=", "TMUX_PANE=", "SUPERCLAUDE_PANE_ID=")
	w.Env = append(w.Env, o.Env...)
	t.Cleanup(func() {
		w.TmuxCmd("-S", w.Sock, "kill-server").Run()
		for _, name := range o.Servers {
			w.TmuxCmd("-L", name, "kill-server").Run()
		}
		for _, mark := range [][2]string{{fakeagent.EnvLog, w.Log}, {envvar.Fleet, w.File}} {
			left, _ := proc.FindByEnv(mark[0], mark[1])
			for _, p := range left {
				proc.Signal(p.Identity, syscall.SIGKILL)
			}
		}
		os.RemoveAll(rt)
	})
	w.StartServer("-S", w.Sock)
	return w
}

// StartServer starts the tmux server selected by flags with no
// configuration file (the first command of a server reads it), holding a
// session of its own. The server's environment, which every pane starts
// with, is the world's.
func (w *World) StartServer(flags ...string) {
	w.T.Helper()
	if out, err := w.TmuxCmd(append(flags, "-f", "/dev/null", "new-session", "-d", "-s", "keep", "cat")...).CombinedOutput(); err != nil {
		w.T.Fatalf("starting tmux: %v %s", err, out)
	}
}

// TmuxCmd is tmux with args (the server not chosen) in the world.
func (w *World) TmuxCmd(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", args...)
	cmd.Env, cmd.Dir = w.Env, w.Dir
	return cmd
}

// Tmux runs a command on the world's tmux server.
func (w *World) Tmux(args ...string) (string, error) {
	out, err := w.TmuxCmd(append([]string{"-S", w.Sock}, args...)...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// Run runs superclaude with args in the world.
func (w *World) Run(args ...string) (string, error) {
	cmd := exec.Command(w.Bin, args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// SC runs superclaude with args and fails the test when it fails.
func (w *World) SC(args ...string) string {
	w.T.Helper()
	out, err := w.Run(args...)
	if err != nil {
		w.T.Fatalf("superclaude %v: %v\n%s", args, err, out)
	}
	return out
}
