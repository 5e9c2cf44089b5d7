package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// tmuxServer is a private tmux server of one test, started with the
// world's environment, whose panes run an interactive bash in the
// project: a user's fresh pane.
type tmuxServer struct {
	w    *world
	sock string
	// marks numbers runShell's markers.
	marks int
}

func (w *world) tmux() *tmuxServer {
	w.t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		w.t.Skip("tmux is not installed (.ci/run installs it): the pane scenarios need a real tmux")
	}
	s := &tmuxServer{w: w, sock: filepath.Join(w.tmp, "tmux.sock")}
	w.t.Cleanup(func() { s.kill() })
	return s
}

func (s *tmuxServer) run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", s.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.w.env
	out, err := cmd.CombinedOutput()
	return strings.TrimRight(string(out), "\n"), err
}

func (s *tmuxServer) must(args ...string) string {
	s.w.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.w.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return out
}

// shell is the command of every pane: bash without the user's rc files, a
// short prompt.
var shell = []string{"env", "PS1=$ ", "bash", "--norc", "--noprofile"}

// pane opens a window of tmux session sess (created when needed) whose
// pane is labelled label ("" for an unlabelled pane, as a user's own
// panes are), and returns the pane's id.
func (s *tmuxServer) pane(sess, window, label string) string {
	s.w.t.Helper()
	var args []string
	if _, err := s.run("has-session", "-t", "="+sess); err != nil {
		args = []string{"new-session", "-d", "-s", sess, "-n", window, "-x", "160", "-y", "45"}
	} else {
		args = []string{"new-window", "-d", "-t", "=" + sess + ":", "-n", window}
	}
	args = append(args, "-c", s.w.project, "-P", "-F", "#{pane_id}", "--")
	id := s.must(append(args, shell...)...)
	if label != "" {
		s.must("set-option", "-p", "-t", id, "@pane_label", label)
	}
	s.waitScreen(id, "$ ")
	return id
}

// send types a command line into a pane's shell.
func (s *tmuxServer) send(pane, line string) {
	s.w.t.Helper()
	s.must("send-keys", "-t", pane, "-l", line)
	s.must("send-keys", "-t", pane, "Enter")
}

// runShell runs a command line in a pane's shell and returns what it
// printed and its exit code, read off the screen between two markers.
func (s *tmuxServer) runShell(pane, line string) (out string, code int) {
	s.w.t.Helper()
	s.marks++
	begin, end := fmt.Sprintf("BEGIN%d", s.marks), fmt.Sprintf("END%d", s.marks)
	s.send(pane, "echo "+begin+"; "+line+"; echo "+end+"=$?")
	re := regexp.MustCompile(`(?ms)^` + begin + `\n(.*?)^` + end + `=(\d+)`)
	m := re.FindStringSubmatch(s.waitMatch(pane, re))
	code, _ = strconv.Atoi(m[2])
	return m[1], code
}

// typeLine types a prompt into claude in a pane as a person does: once
// claude's input prompt is drawn, the text; once the text shows in the
// input box, Enter (text and Enter in one write would be a paste). On a
// busy machine claude draws its prompt a moment before it reads keys, and
// a prompt typed too early loses its first characters: that shows here as
// a failure to see the text, not as a prompt the model never got.
func (s *tmuxServer) typeLine(pane, text string) {
	s.w.t.Helper()
	s.waitScreen(pane, "❯")
	s.must("send-keys", "-t", pane, "-l", text)
	probe := text
	if len(probe) > 60 {
		probe = probe[:60]
	}
	deadline := time.Now().Add(wait)
	for !inputShows(s.capture(pane), probe) {
		if time.Now().After(deadline) {
			s.w.t.Fatalf("pane %s: the input box never showed %q; screen:\n%s", pane, probe, s.capture(pane))
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	s.must("send-keys", "-t", pane, "Enter")
}

// inputShows reports whether claude's input line (the one after ❯) starts
// with text.
func inputShows(screen, text string) bool {
	for _, line := range strings.Split(screen, "\n") {
		_, after, ok := strings.Cut(line, "❯")
		if ok && strings.HasPrefix(strings.TrimLeft(after, " \u00a0"), text) {
			return true
		}
	}
	return false
}

func (s *tmuxServer) capture(pane string) string {
	out, _ := s.run("capture-pane", "-p", "-J", "-S", "-300", "-t", pane)
	return out
}

// waitScreen waits until the pane shows want.
func (s *tmuxServer) waitScreen(pane, want string) string {
	s.w.t.Helper()
	var screen string
	deadline := time.Now().Add(wait)
	for {
		screen = s.capture(pane)
		if strings.Contains(screen, want) {
			return screen
		}
		if time.Now().After(deadline) {
			s.w.t.Fatalf("pane %s never showed %q; screen:\n%s", pane, want, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitMatch waits until the pane shows a match of re and returns it.
func (s *tmuxServer) waitMatch(pane string, re *regexp.Regexp) string {
	s.w.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		screen := s.capture(pane)
		if m := re.FindString(screen); m != "" {
			return m
		}
		if time.Now().After(deadline) {
			s.w.t.Fatalf("pane %s never showed %s; screen:\n%s", pane, re, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// exitAndStty has the pane's shell print the last exit code and the
// terminal's modes on one line, and returns both.
func (s *tmuxServer) exitAndStty(pane string) (code int, stty string) {
	s.w.t.Helper()
	s.send(pane, "echo EXIT=$? STTY=$(stty -a | tr -s ' ;\\n' ' ') END")
	m := s.waitMatch(pane, regexp.MustCompile(`EXIT=(\d+) STTY=(.*) END`))
	sub := regexp.MustCompile(`EXIT=(\d+) STTY=(.*) END`).FindStringSubmatch(m)
	code, _ = strconv.Atoi(sub[1])
	return code, " " + sub[2] + " "
}

// cooked reports the modes a cooked terminal must have that stty shows
// missing (negated) in stty's output.
func cooked(stty string) []string {
	var bad []string
	for _, m := range []string{"icanon", "echo", "isig", "opost", "icrnl"} {
		if !strings.Contains(stty, " "+m+" ") {
			bad = append(bad, m)
		}
	}
	return bad
}

// supervisor waits for the superclaude the pane's shell started and
// returns its identity.
func (s *tmuxServer) supervisor(pane string) proc.Identity {
	s.w.t.Helper()
	shellPID, _ := strconv.Atoi(s.must("display-message", "-p", "-t", pane, "#{pane_pid}"))
	var id proc.Identity
	s.w.until("superclaude to run in pane "+pane, func() bool {
		for _, c := range children(shellPID) {
			if exe, err := os.Readlink("/proc/" + strconv.Itoa(c.PID) + "/exe"); err == nil && filepath.Base(exe) == "superclaude" {
				id = c.Identity
				return true
			}
		}
		return false
	})
	return id
}

func (s *tmuxServer) kill() { s.run("kill-server") }

// suspendAndResume presses Ctrl-Z in pane, where superclaude (sup) runs an
// agent, and checks what a person sees as with the plain agent: a stopped
// job (exit status 148) on a cooked terminal, superclaude alive. It then
// runs fg and waits until the agent's screen shows ready again. stopped is
// what the screen must also show once stopped (the agent's own message,
// or "Stopped"); it returns that screen.
func (s *tmuxServer) suspendAndResume(pane string, sup proc.Identity, stopped, ready string) string {
	t := s.w.t
	t.Helper()
	s.must("send-keys", "-t", pane, "C-z")
	s.waitScreen(pane, "Stopped")
	screen := s.waitScreen(pane, stopped)
	code, stty := s.exitAndStty(pane)
	if code != 148 {
		t.Errorf("the shell saw the job end with %d, want 148 (stopped by SIGTSTP)", code)
	}
	if bad := cooked(stty); len(bad) != 0 {
		t.Fatalf("the shell got a terminal that is not cooked: %v missing from %q\n%s", bad, stty, screen)
	}
	if !proc.Alive(sup) {
		t.Fatal("superclaude is gone; it should be stopped")
	}
	s.send(pane, "clear; fg")
	s.w.until("the agent's prompt to come back after fg", func() bool {
		screen := s.capture(pane)
		return strings.Contains(screen, ready) && !strings.Contains(screen, "EXIT=148")
	})
	return screen
}

// exitsCooked waits for superclaude (sup) in pane to end and checks that
// it ended with want on a cooked terminal.
func (s *tmuxServer) exitsCooked(pane string, sup proc.Identity, want int) {
	t := s.w.t
	t.Helper()
	s.w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	code, stty := s.exitAndStty(pane)
	if code != want {
		t.Errorf("superclaude exited %d, want the agent's %d", code, want)
	}
	if bad := cooked(stty); len(bad) != 0 {
		t.Errorf("the terminal is not cooked after exit: %v missing from %q", bad, stty)
	}
}
