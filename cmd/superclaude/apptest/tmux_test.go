package apptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tmuxServer is a private tmux server for one test.
type tmuxServer struct {
	t    *testing.T
	sock string
}

func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): the terminal tests need a real tmux")
	}
	dir, err := os.MkdirTemp("", "sc-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	s := &tmuxServer{t: t, sock: filepath.Join(dir, "s")}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", s.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	return s
}

func (s *tmuxServer) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxServer) capture(target string) string {
	return s.run("capture-pane", "-p", "-J", "-S", "-200", "-t", target)
}

// waitScreen waits until the pane shows a line matching re.
func (s *tmuxServer) waitScreen(target string, re *regexp.Regexp) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.capture(target)
		if re.MatchString(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("pane never showed %s:\n%s", re, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// script writes a shell script that runs superclaude with the harness's
// environment and then prints its exit code, so the pane's shell survives
// to be asked about its terminal.
func (h *harness) script(extra ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, kv := range append(append([]string{}, h.env...), extra...) {
		k, v, _ := strings.Cut(kv, "=")
		if k == "TMUX" || k == "TMUX_PANE" || k == "SUPERCLAUDE_PANE_ID" || !validName(k) {
			continue
		}
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
	}
	fmt.Fprintf(&b, "cd %s\n%s\necho \"SC-EXIT=$?\"\n", shellQuote(h.dir), shellQuote(h.bin))
	path := filepath.Join(h.dir, "run.sh")
	if err := os.WriteFile(path, []byte(b.String()), 0o700); err != nil {
		h.t.Fatal(err)
	}
	return path
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validName(k string) bool { return nameRE.MatchString(k) }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestUnderTmux(t *testing.T) {
	for _, end := range []string{"agent exits", "superclaude gets SIGTERM", "agent is killed"} {
		t.Run(end, func(t *testing.T) {
			tm := newTmux(t)
			h := newHarness(t)
			tm.run("new-session", "-d", "-s", "fleet", "-n", "main", "-x", "100", "-y", "30", "sh")
			tm.run("set-option", "-p", "-t", "fleet:main", "@pane_label", "SDK")
			tm.run("send-keys", "-t", "fleet:main", "sh "+h.script(), "Enter")
			tm.waitScreen("fleet:main", regexp.MustCompile(`FAKE-AGENT READY`))

			// The pane's identity came from tmux itself.
			start := h.waitStarts(1, timeout)[0]
			if got := start.Env["SUPERCLAUDE_PANE_ID"]; got != "fleet:main:SDK" {
				t.Fatalf("pane identity %q, want fleet:main:SDK", got)
			}

			// Keys typed in the pane reach the agent.
			tm.run("send-keys", "-t", "fleet:main", "hello-from-tmux", "Enter")
			tm.waitScreen("fleet:main", regexp.MustCompile(`KEY:hello-from-tmux`))

			// A resize of the pane reaches the agent.
			tm.run("resize-window", "-t", "fleet:main", "-x", "123", "-y", "41")
			tm.waitScreen("fleet:main", regexp.MustCompile(`SIZE 41x123`))

			switch end {
			case "agent exits":
				tm.run("send-keys", "-t", "fleet:main", "exit 0", "Enter")
				tm.waitScreen("fleet:main", regexp.MustCompile(`SC-EXIT=0`))
			case "superclaude gets SIGTERM":
				pid, _ := strconv.Atoi(start.Env["CLAUDE_SUPERVISOR_PID"])
				syscall.Kill(pid, syscall.SIGTERM)
				tm.waitScreen("fleet:main", regexp.MustCompile(`SC-EXIT=143`))
			case "agent is killed":
				syscall.Kill(start.PID, syscall.SIGKILL)
				// A crash: the supervisor restarts it; then the user exits.
				h.waitStarts(2, timeout)
				tm.run("send-keys", "-t", "fleet:main", "exit 0", "Enter")
				tm.waitScreen("fleet:main", regexp.MustCompile(`SC-EXIT=0`))
			}
			sttyOut := filepath.Join(h.dir, "stty.out")
			tm.run("send-keys", "-t", "fleet:main", "stty -a > "+sttyOut+"; echo STTY-DONE", "Enter")
			tm.waitScreen("fleet:main", regexp.MustCompile(`(?m)^STTY-DONE`))
			b, err := os.ReadFile(sttyOut)
			if err != nil {
				t.Fatal(err)
			}
			if bad := notCooked(string(b)); bad != "" {
				t.Errorf("the pane's terminal is not sane after superclaude: %s\n%s", bad, b)
			}
		})
	}
}

// notCooked returns the modes a cooked terminal has that stty -a output
// shows unset ("-icanon"), or "" when all are set.
func notCooked(stty string) string {
	fields := map[string]bool{}
	for _, f := range strings.Fields(stty) {
		fields[strings.TrimSuffix(f, ";")] = true
	}
	var bad []string
	for _, mode := range []string{"icanon", "echo", "isig", "opost", "icrnl", "iexten"} {
		if !fields[mode] || fields["-"+mode] {
			bad = append(bad, "-"+mode)
		}
	}
	return strings.Join(bad, " ")
}

func TestNotCookedSpotsARawTerminal(t *testing.T) {
	cooked := "speed 38400 baud; line = 0;\n-parenb -parodd cs8 -hupcl\nicrnl ixon -ixoff\nopost -olcuc\nisig icanon iexten echo echoe echok -echonl"
	if bad := notCooked(cooked); bad != "" {
		t.Fatalf("cooked reported as %q", bad)
	}
	raw := strings.NewReplacer("isig icanon", "-isig -icanon", "opost", "-opost").Replace(cooked)
	if bad := notCooked(raw); !strings.Contains(bad, "-icanon") || !strings.Contains(bad, "-opost") {
		t.Fatalf("raw reported as %q", bad)
	}
}
