package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/testutil/fakeapi"
)

// pane is one tmux pane of a private tmux server, running an interactive
// bash, as a person's terminal.
type pane struct {
	t      *testing.T
	sock   string
	target string
}

func newPane(t *testing.T) *pane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: job control is tested in a real tmux pane")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the pane needs a shell with job control")
	}
	dir, err := os.MkdirTemp("", "sc-e2e-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	p := &pane{t: t, sock: filepath.Join(dir, "s"), target: "jc"}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", p.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	p.tmux("new-session", "-d", "-s", "jc", "-x", "120", "-y", "40", "bash --norc --noprofile")
	p.keys("PS1='$ '; clear", "Enter")
	return p
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (p *pane) keys(keys ...string) { p.tmux(append([]string{"send-keys", "-t", p.target}, keys...)...) }

func (p *pane) screen() string { return p.tmux("capture-pane", "-p", "-J", "-t", p.target) }

// wait waits until the pane's screen matches re.
func (p *pane) wait(re *regexp.Regexp, within time.Duration) string {
	p.t.Helper()
	deadline := time.Now().Add(within)
	for {
		s := p.screen()
		if re.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the pane never showed %s:\n%s", re, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// script writes a script that runs superclaude in the world's environment
// and then prints its exit code.
func (w *world) script(args ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, kv := range w.env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
	}
	fmt.Fprintf(&b, "cd %s\n%s", shellQuote(w.project), shellQuote(w.superclaude))
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("\necho \"SC-EXIT=$?\"\n")
	path := filepath.Join(w.root, "run.sh")
	if err := os.WriteFile(path, []byte(b.String()), 0o700); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// cookedModes are the modes stty -a shows set on a cooked terminal.
var cookedModes = []string{"icanon", "echo", "isig", "opost", "icrnl", "iexten"}

func notCooked(stty string) []string {
	fields := map[string]bool{}
	for _, f := range strings.Fields(stty) {
		fields[strings.TrimSuffix(f, ";")] = true
	}
	var bad []string
	for _, m := range cookedModes {
		if !fields[m] || fields["-"+m] {
			bad = append(bad, "-"+m)
		}
	}
	return bad
}

// TestCtrlZSuspendsClaudeInTmux is issue 9's "Ctrl-Z doesn't suspend" with
// the real CLI: under superclaude claude led its own pty session, its group
// was orphaned, and it printed "suspended" but kept running with the
// terminal raw. Now C-z leaves a stopped job and a cooked terminal in the
// pane's shell, `fg` brings claude's prompt back and it answers a new
// prompt, and /exit ends superclaude with 0.
func TestCtrlZSuspendsClaudeInTmux(t *testing.T) {
	w := newWorld(t)
	p := newPane(t)
	p.keys("sh "+w.script(), "Enter")
	prompt := regexp.MustCompile(`(?m)^\s*❯`) // the input box
	p.wait(prompt, 60*time.Second)

	p.keys("C-z")
	s := p.wait(regexp.MustCompile(`Stopped\s+sh `), 20*time.Second)
	if !strings.Contains(s, "suspended") {
		t.Errorf("claude's own suspend message is missing:\n%s", s)
	}
	stty := filepath.Join(w.root, "stty.out")
	p.keys("stty -a > "+stty+"; echo STTY-DONE", "Enter")
	p.wait(regexp.MustCompile(`(?m)^STTY-DONE`), 10*time.Second)
	b, err := os.ReadFile(stty)
	if err != nil {
		t.Fatal(err)
	}
	if bad := notCooked(string(b)); len(bad) > 0 {
		t.Fatalf("the shell got a terminal that is not cooked: %v\n%s", bad, b)
	}

	p.keys("fg", "Enter")
	deadline := time.Now().Add(30 * time.Second)
	for s = p.screen(); !prompt.MatchString(s) || strings.Contains(s, "STTY-DONE"); s = p.screen() {
		if time.Now().After(deadline) {
			w.dump()
			t.Fatalf("claude's prompt did not come back after fg:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
	}
	w.api.Push(fakeapi.Text("pong-after-fg"))
	p.keys("ping after fg")
	time.Sleep(300 * time.Millisecond)
	p.keys("Enter")
	p.wait(regexp.MustCompile(`pong-after-fg`), 30*time.Second)

	p.keys("/exit")
	time.Sleep(300 * time.Millisecond)
	p.keys("Enter")
	p.wait(regexp.MustCompile(`SC-EXIT=0`), 30*time.Second)
}
