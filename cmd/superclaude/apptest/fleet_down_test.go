package apptest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withoutDefaultServer drops the world's $SUPERCLAUDE_TMUX_SOCKET, so that
// only a fleet file, a flag or a fleet's record names a server.
func (w *fleetWorld) withoutDefaultServer() {
	env := w.Env[:0:0]
	for _, kv := range w.Env {
		if !strings.HasPrefix(kv, "SUPERCLAUDE_TMUX_SOCKET=") {
			env = append(env, kv)
		}
	}
	w.Env = env
}

func (w *fleetWorld) onServer(name string) bool {
	return w.TmuxCmd("-L", name, "has-session", "-t", "=work").Run() == nil
}

// Regression, issue 19: `+down demo` said "the fleet is not up" while the
// fleet ran on the server its file names (socket = "…"): the name alone
// was looked for on the default server only. +up now records where the
// fleet runs, and +down NAME finds it there.
func TestDownByNameFindsTheFleetsOwnServer(t *testing.T) {
	w := newWorld(t)
	w.withoutDefaultServer()
	w.StartServer("-L", "scfleet")
	w.writeFleet(`socket = "scfleet"` + "\n" + window("main") + pane("A"))
	w.SC("+up", w.File)
	w.waitBound(1)
	record := filepath.Join(w.Dir, "state", "fleets", "work.json")
	if fi, err := os.Stat(record); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("+up left no private record of where the fleet runs: %v %v", fi, err)
	}
	out, err := w.Run("+down", "work")
	if err != nil || !strings.Contains(out, "fleet work is down: 1 supervisor stopped") {
		t.Fatalf("+down work (the fleet on server scfleet): %v\n%s", err, out)
	}
	if w.onServer("scfleet") {
		t.Errorf("+down work left the fleet on its server")
	}
	if b, err := os.ReadFile(record); err != nil || !strings.Contains(string(b), `"down":`) {
		t.Errorf("+down did not mark the fleet's record down: %v %s", err, b)
	}
	w.nothingLeft(w.starts())

	// Regression, issue 19: a fleet that is down is not up, which is no
	// error: its record says it was a fleet ("no tmux session work on
	// tmux's default server (a fleet on another server: …)", exit 1).
	out, err = w.Run("+down", "work")
	if err != nil || strings.TrimSpace(out) != "fleet work is not up (nothing to stop)" {
		t.Errorf("+down of a fleet that is down: %v\n%s", err, out)
	}
	// A name that never was a fleet's: it says where it looked and how to
	// name another server.
	out, err = w.Run("+down", "other")
	if err == nil || !strings.Contains(out, "no tmux session \"other\" on tmux's default server") || !strings.Contains(out, "--tmux-socket") {
		t.Errorf("+down of a name that is no fleet's: %v\n%s", err, out)
	}
}

// A fleet's record is a hint, not an authority: a record naming a server
// where another session of that name runs without the fleet's mark makes
// +down refuse, not stop it.
func TestDownByNameTrustsNoRecordOverTheMark(t *testing.T) {
	w := newWorld(t)
	w.withoutDefaultServer()
	w.StartServer("-L", "scother")
	if out, err := w.TmuxCmd("-L", "scother", "new-session", "-d", "-s", "work", "cat").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	sock, err := w.TmuxCmd("-L", "scother", "display-message", "-p", "-t", "=work:", "#{socket_path}").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(w.Dir, "state", "fleets")
	os.MkdirAll(dir, 0o700)
	rec := `{"name":"work","file":"/nowhere/fleet.toml","socket":"` + strings.TrimSpace(string(sock)) + `"}`
	if err := os.WriteFile(filepath.Join(dir, "work.json"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := w.Run("+down", "work")
	if err == nil || !strings.Contains(out, "not started by superclaude +up") {
		t.Fatalf("+down followed a record to a session that is not a fleet's: %v\n%s", err, out)
	}
	if !w.onServer("scother") {
		t.Fatalf("the other session is gone")
	}
}

// Regression, issue 19: Ctrl-C during +down left the fleet half down with
// nothing said. It now says which supervisors still run and how to finish;
// +down again finishes.
func TestInterruptedDownSaysWhatIsUpAndDownAgainFinishes(t *testing.T) {
	w := newWorld(t)
	// Each agent ignores SIGTERM: its supervisor, asked to stop, waits 6 s
	// before it kills it, so the +down below is still waiting when it is
	// interrupted.
	w.writeFleet(window("main") + `
  [[window.pane]]
  label = "A"
  env = { FAKE_AGENT_BIND = "` + convID("A") + `", FAKE_AGENT_IGNORE_TERM = "1", SUPERCLAUDE_GRACE = "6s" }
`)
	w.SC("+up", w.File)
	w.waitBound(1)
	starts := w.starts()

	cmd := exec.Command(w.Bin, "+down", "work")
	cmd.Dir, cmd.Env = w.Dir, w.Env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Once the supervisor has been asked (its log says so), Ctrl-C.
	w.waitFor("the supervisor to be asked to stop", func() bool {
		b, _ := os.ReadFile(filepath.Join(w.Dir, "state", "superclaude.log"))
		return bytes.Contains(b, []byte(`msg="stop requested"`))
	})
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("interrupted +down: %v, want exit 130", err)
	}
	for _, want := range []string{"+down work was interrupted", "1 supervisor of the fleet is still running (pane A)",
		"asked to stop", "The tmux session work stays up", "To finish: superclaude +down work"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("interrupted +down does not say %q:\n%s", want, out.String())
		}
	}
	if _, err := w.Tmux("has-session", "-t", "=work"); err != nil {
		t.Fatalf("the fleet's session went although +down was interrupted")
	}

	// +down again finishes the job.
	start := time.Now()
	if o := w.SC("+down", "work"); !strings.Contains(o, "fleet work is down") {
		t.Fatalf("+down again: %s", o)
	}
	t.Logf("+down again took %v", time.Since(start))
	w.nothingLeft(starts)
}
