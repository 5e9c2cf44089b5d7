package apptest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// TestAttackPaneDirWithTmuxFormatRunsACommand: a fleet pane with
// dir = "#(touch /tmp/x)" ran the command, because tmux format-expands the
// start directory (-c). The pane now starts in that very directory and
// nothing runs.
func TestAttackPaneDirWithTmuxFormatRunsACommand(t *testing.T) {
	w := newWorld(t)
	marker := filepath.Join(w.RT, "pwned")
	attack := "#(touch " + marker + ")"
	// The directory must exist for +up to start the pane: the value, read
	// as a path, is a chain "#(touch " / … / "pwned)" under the fleet's dir.
	dir := filepath.Join(w.Dir, attack)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	w.writeFleet(window("main") + pane("A", "dir = '"+attack+"'"))
	w.SC("+up", w.File)
	w.waitBound(1)
	start := w.starts()[0]
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(start.Dir); got != want {
		t.Errorf("the agent started in %q, want %q", start.Dir, dir)
	}
	w.SC("+down", w.File)
	w.nothingLeft(w.starts())
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("tmux ran the command in the pane's dir: %s exists", marker)
	}
}

// foreignJob starts, in the pane given by tmux args, a shell that ignores
// SIGTERM and has a nohup job, and returns both.
func (w *fleetWorld) foreignJob(name string, tmuxArgs ...string) (shell, job proc.Identity) {
	w.T.Helper()
	pids := filepath.Join(w.Dir, name+".pids")
	script := `trap "" TERM; nohup sleep 1000 >/dev/null 2>&1 & echo "$$ $!" > ` + pids + `.tmp; mv ` + pids + `.tmp ` + pids + `; wait`
	if out, err := w.Tmux(append(tmuxArgs, "sh", "-c", script)...); err != nil {
		w.T.Fatalf("tmux %v: %v %s", tmuxArgs, err, out)
	}
	var f []string
	w.waitFor("the foreign job's pids", func() bool {
		b, err := os.ReadFile(pids)
		f = strings.Fields(string(b))
		return err == nil && len(f) == 2
	})
	ids := make([]proc.Identity, 2)
	for i, s := range f {
		pid, _ := strconv.Atoi(s)
		id, err := proc.Of(pid)
		if err != nil {
			w.T.Fatal(err)
		}
		ids[i] = id
	}
	w.T.Cleanup(func() {
		proc.Signal(ids[1], syscall.SIGKILL)
		proc.Signal(ids[0], syscall.SIGKILL)
	})
	return ids[0], ids[1]
}

// TestAttackDownOnAForeignSessionOfTheSameName: `+down f.toml` against a
// tmux session of the fleet's name that superclaude did not create killed
// that session's processes, nohup jobs included. +down now refuses a
// session +up did not mark, and stops nothing.
func TestAttackDownOnAForeignSessionOfTheSameName(t *testing.T) {
	w := newWorld(t)
	w.writeFleet(window("main") + pane("A"))
	shell, job := w.foreignJob("foreign", "new-session", "-d", "-s", "work")

	out, err := w.Run("+down", w.File, "--grace", "500ms")
	if err == nil {
		t.Errorf("+down acted on a session superclaude did not start: %s", out)
	}
	if !strings.Contains(out, "not started by superclaude") {
		t.Errorf("+down's refusal does not say why: %s", out)
	}
	// +up refuses it as well, rather than adding panes to it.
	if out, err := w.Run("+up", w.File); err == nil || !strings.Contains(out, "not started by superclaude") {
		t.Errorf("+up on a session superclaude did not start: %v %s", err, out)
	}
	for _, id := range []proc.Identity{shell, job} {
		if !proc.Alive(id) {
			t.Errorf("pid %d of the foreign session was killed", id.PID)
		}
	}
	if _, err := w.Tmux("has-session", "-t", "=work"); err != nil {
		t.Errorf("the foreign session was removed")
	}
	if s := w.starts(); len(s) > 0 {
		t.Errorf("agents started in a foreign session: %+v", s)
	}
}

// TestDownLeavesAPaneSomeoneElseOpenedInTheFleet: a pane the user opened
// in the fleet's session is not the fleet's: +down stops the fleet's
// supervisors and leaves that pane, its nohup job, and so the session.
func TestDownLeavesAPaneSomeoneElseOpenedInTheFleet(t *testing.T) {
	w := newWorld(t)
	w.writeFleet(window("main") + pane("A"))
	w.SC("+up", w.File)
	w.waitBound(1)
	shell, job := w.foreignJob("user", "split-window", "-t", "=work:main")

	out := w.SC("+down", w.File, "--grace", "500ms")
	if !strings.Contains(out, "1 supervisor stopped, 0 killed") || !strings.Contains(out, "kept the tmux session: 1 pane in it was") {
		t.Errorf("+down: %s", out)
	}
	for _, id := range identitiesOf(t, w.starts()) {
		if proc.Alive(id) {
			t.Errorf("pid %d of the fleet outlived +down", id.PID)
		}
	}
	for _, id := range []proc.Identity{shell, job} {
		if !proc.Alive(id) {
			t.Errorf("pid %d of the user's pane was killed", id.PID)
		}
	}
	if panes, err := w.Tmux("list-panes", "-s", "-t", "=work:", "-F", "#{pane_pid}"); err != nil || panes != strconv.Itoa(shell.PID) {
		t.Errorf("the session should hold the user's pane only: %q %v", panes, err)
	}
}
