package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// Regression (issue 11): +status looked only in ./sessions and, run
// anywhere else, printed "no sessions directory: stat /tmp/sessions" and
// exited 1 while a fleet ran. It now lists every session of the user from
// any directory; --here keeps the current project's.
func TestStatusFromAnyDirectory(t *testing.T) {
	root := t.TempDir()
	env := []string{
		"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "TMUX=",
		"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(root, "state"),
	}
	bin := testbin.Superclaude(t)
	in := func(dir string, extra ...string) runner {
		os.MkdirAll(dir, 0o700)
		return runner{t: t, bin: bin, dir: dir, env: append(append([]string{}, env...), extra...)}
	}
	a, b, elsewhere := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "elsewhere")
	if _, e, code := in(a, "SUPERCLAUDE_PANE_ID=f:w:A").run("", "+session", "activate", "sessions/SA", "implement"); code != 0 {
		t.Fatal(e)
	}
	if _, e, code := in(b, "SUPERCLAUDE_PANE_ID=f:w:B").run("", "+session", "activate", "sessions/SB", "review"); code != 0 {
		t.Fatal(e)
	}
	names := func(out string) []string {
		var views []cli.SessionView
		if err := json.Unmarshal([]byte(out), &views); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		var ns []string
		for _, v := range views {
			ns = append(ns, v.Name)
		}
		return ns
	}
	out, errOut, code := in(elsewhere).run("", "+status", "--json")
	if code != 0 || strings.Join(names(out), ",") != "SA,SB" {
		t.Fatalf("+status from elsewhere: %d %q %q", code, out, errOut)
	}
	out, _, _ = in(a).run("", "+status", "--json", "--here")
	if strings.Join(names(out), ",") != "SA" {
		t.Fatalf("+status --here in a: %q", out)
	}
	if out, _, code := in(filepath.Join(root, "fresh"), "SUPERCLAUDE_STATE_DIR="+filepath.Join(root, "nobody")).run("", "+status"); code != 0 || !strings.Contains(out, "no sessions yet") {
		t.Fatalf("+status with no sessions anywhere: %d %q", code, out)
	}
	// Regression: +session list on a fresh install also printed the
	// missing directory's error beside the answer.
	out, errOut, code = in(filepath.Join(root, "fresh"), "SUPERCLAUDE_STATE_DIR="+filepath.Join(root, "nobody")).run("", "+session", "list")
	if code != 0 || strings.TrimSpace(out) != "no sessions yet" || errOut != "" {
		t.Fatalf("+session list with no sessions anywhere: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "sessions")); err == nil {
		t.Fatal("+status created a sessions directory")
	}
}

// +why defaults to this agent's session, prints JSON with --json, and
// follows the log with -f.
func TestWhyDefaultsJSONAndFollow(t *testing.T) {
	dir := t.TempDir()
	r := runner{t: t, bin: testbin.Superclaude(t), dir: dir, env: []string{
		"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "TMUX=", "SUPERCLAUDE_PANE_ID=",
		"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"),
	}}
	if _, e, code := r.run("", "+session", "activate", "sessions/W", "implement"); code != 0 {
		t.Fatal(e)
	}
	out, errOut, code := r.run("", "+why")
	if code != 0 || !strings.Contains(out, "skill implement activated the session") {
		t.Fatalf("+why with no argument: %d %q %q", code, out, errOut)
	}
	out, _, _ = r.run("", "+why", "--json", "W")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var ev struct{ Session, Kind string }
	if len(lines) == 0 || json.Unmarshal([]byte(lines[0]), &ev) != nil || ev.Session != "W" {
		t.Fatalf("+why --json: %q", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	follow := exec.CommandContext(ctx, r.bin, "+why", "-f", "W")
	follow.Dir, follow.Env = dir, append(os.Environ(), r.env...)
	got := &syncBuf{}
	follow.Stdout = got
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	r.run("", "+session", "phase", "Phase 9: Followed")
	deadline := time.Now().Add(8 * time.Second)
	for !strings.Contains(got.String(), "Phase 9: Followed") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	follow.Process.Signal(os.Interrupt)
	follow.Wait()
	if !strings.Contains(got.String(), "Phase 9: Followed") {
		t.Fatalf("+why -f did not print the new event:\n%s", got.String())
	}
}

// syncBuf is a buffer a command writes and a test reads at once.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Regression: with a session "demo" in two projects, +why demo run from
// elsewhere showed one of them, silently. It says the name is in both and
// lists their directories; a directory names one.
func TestWhyOfANameTwoProjectsShareAsksForADirectory(t *testing.T) {
	root := t.TempDir()
	in := inProject(t, root)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for dir, pane := range map[string]string{a: "f:w:A", b: "f:w:B"} {
		if _, e, code := in(dir, pane).run("", "+session", "activate", "sessions/demo", "implement"); code != 0 {
			t.Fatal(e)
		}
	}
	_, errOut, code := in(filepath.Join(root, "elsewhere"), "").run("", "+why", "demo")
	if code == 0 || !strings.Contains(errOut, filepath.Join(a, "sessions", "demo")) || !strings.Contains(errOut, filepath.Join(b, "sessions", "demo")) {
		t.Fatalf("+why demo with two: %d %q", code, errOut)
	}
	out, errOut, code := in(filepath.Join(root, "elsewhere"), "").run("", "+why", filepath.Join(b, "sessions", "demo"))
	if code != 0 || !strings.Contains(out, "skill implement activated the session") {
		t.Fatalf("+why by directory: %d %q %q", code, out, errOut)
	}
}

// Regression: +session show (and restart) --session NAME, run from another
// directory, looked only in that directory's sessions and said "no such
// session", though +status listed it; the README says restart --session
// works from any shell of yours. A name found in one of the user's
// sessions directories is that session; one found in two is refused with
// both named.
func TestSessionByNameFromAnotherDirectory(t *testing.T) {
	root := t.TempDir()
	in := inProject(t, root)
	a, b, elsewhere := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "elsewhere")
	for _, act := range []struct{ dir, pane, name string }{{a, "f:w:A", "solo"}, {a, "f:w:A2", "demo"}, {b, "f:w:B", "demo"}} {
		if _, e, code := in(act.dir, act.pane).run("", "+session", "activate", "sessions/"+act.name, "implement"); code != 0 {
			t.Fatal(e)
		}
	}
	out, errOut, code := in(elsewhere, "").run("", "+session", "show", "--session", "solo")
	if code != 0 || !strings.Contains(out, `"projectDir": "`+a+`"`) {
		t.Fatalf("+session show --session solo from elsewhere: %d %q %q", code, out, errOut)
	}
	_, errOut, code = in(elsewhere, "").run("", "+session", "show", "--session", "demo")
	if code == 0 || !strings.Contains(errOut, filepath.Join(b, "sessions", "demo")) {
		t.Fatalf("+session show --session demo with two: %d %q", code, errOut)
	}
	if _, errOut, code = in(elsewhere, "").run("", "+session", "show", "--session", "nowhere"); code == 0 || !strings.Contains(errOut, "there is no session nowhere") {
		t.Fatalf("+session show --session nowhere: %d %q", code, errOut)
	}
}

// +session activate typed by a person in a plain shell makes the shell the
// owner (the replaced scripts' $PPID rule), which +status then shows as
// running; the person is told what that means. A skill's Bash, which has no terminal,
// is not.
func TestActivateInAPlainShellSaysThereIsNoSupervisor(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(testbin.Superclaude(t), "+session", "activate", "sessions/demo", "demo")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "CLAUDE_SUPERVISOR_PID=", "TMUX=",
		"SUPERCLAUDE_PANE_ID=", "SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"))
	p := testbin.StartPTY(t, cmd)
	if code := p.Wait(t, 20*time.Second); code != 0 {
		t.Fatalf("activate exited %d: %s", code, p.Output())
	}
	if !strings.Contains(p.Output(), "no supervisor here") {
		t.Errorf("on a terminal, activate said %q", p.Output())
	}
	r := runner{t: t, bin: testbin.Superclaude(t), dir: dir, env: []string{"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=",
		"CLAUDE_SUPERVISOR_PID=", "TMUX=", "SUPERCLAUDE_PANE_ID=", "SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state")}}
	if _, errOut, code := r.run("", "+session", "activate", "sessions/demo2", "demo"); code != 0 || strings.Contains(errOut, "no supervisor") {
		t.Errorf("without a terminal: %d %q", code, errOut)
	}
	// +status shows the shell as the owner, alive, and that it is no
	// supervisor (nothing can restart it).
	out, errOut, code := r.run("", "+status", "--here")
	if code != 0 || !regexp.MustCompile(`demo\s.*held by a shell \(pid \d+\)`).MatchString(out) {
		t.Errorf("+status: %d %q %q; want demo held by a shell", code, out, errOut)
	}
	out, _, _ = r.run("", "+status", "--here", "--json")
	if !strings.Contains(out, `"noSupervisor":true`) {
		t.Errorf("+status --json: %s", out)
	}
}

// inProject returns how to run superclaude in a directory as from a pane,
// with the user's state under root and this test process standing for the
// supervisor; the directory is made.
func inProject(t *testing.T, root string) func(dir, pane string) runner {
	bin := testbin.Superclaude(t)
	return func(dir, pane string) runner {
		os.MkdirAll(dir, 0o700)
		return runner{t: t, bin: bin, dir: dir, env: []string{
			"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "TMUX=", "SUPERCLAUDE_PANE_ID=" + pane,
			"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
			"SUPERCLAUDE_STATE_DIR=" + filepath.Join(root, "state"),
		}}
	}
}
