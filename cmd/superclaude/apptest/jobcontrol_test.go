package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// processState is ps's state letter for pid: T when stopped.
func processState(t *testing.T, pid int) string {
	t.Helper()
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		t.Fatalf("ps %d: %v", pid, err)
	}
	return strings.TrimSpace(string(out))
}

// paneStty is `stty -a` of the pane's terminal, read from outside.
func (s *tmuxServer) paneStty(target string) string {
	s.t.Helper()
	tty := strings.TrimSpace(s.run("display-message", "-p", "-t", target, "#{pane_tty}"))
	out, err := exec.Command("stty", "-a", "-F", tty).CombinedOutput()
	if err != nil {
		s.t.Fatalf("stty -F %s: %v\n%s", tty, err, out)
	}
	return string(out)
}

// TestCtrlZStopsTheAgentAndSuperclaude is issue 9's Ctrl-Z, with the fake
// agent: the agent leading its own pty session was orphaned and could not
// stop. Now C-z in a tmux pane stops the agent and superclaude, the pane's
// shell shows a stopped job on a cooked terminal, and `fg` brings both
// back, raw, with the agent continued and nudged to redraw.
func TestCtrlZStopsTheAgentAndSuperclaude(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the pane needs a shell with job control")
	}
	tm := newTmux(t)
	h := newHarness(t)
	tm.run("new-session", "-d", "-s", "jc", "-x", "100", "-y", "30", "bash --norc --noprofile")
	tm.run("send-keys", "-t", "jc", "PS1='$ '; clear", "Enter")
	tm.run("send-keys", "-t", "jc", "sh "+h.script(), "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`FAKE-AGENT READY`))
	agent := h.waitStarts(1, timeout)[0]
	sup, _ := strconv.Atoi(agent.Env["CLAUDE_SUPERVISOR_PID"])
	tm.run("send-keys", "-t", "jc", "before", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`KEY:before`))

	tm.run("send-keys", "-t", "jc", "C-z")
	tm.waitScreen("jc", regexp.MustCompile(`Stopped\s+sh `))
	for name, pid := range map[string]int{"agent": agent.PID, "superclaude": sup} {
		if st := processState(t, pid); !strings.HasPrefix(st, "T") {
			t.Errorf("%s (pid %d) is %q, not stopped", name, pid, st)
		}
	}
	sttyOut := filepath.Join(h.dir, "stty.out")
	tm.run("send-keys", "-t", "jc", "stty -a > "+sttyOut+"; echo STTY-DONE", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`(?m)^STTY-DONE`))
	b, err := os.ReadFile(sttyOut)
	if err != nil {
		t.Fatal(err)
	}
	if bad := notCooked(string(b)); bad != "" {
		t.Fatalf("the shell got a terminal that is not cooked: %s\n%s", bad, b)
	}

	tm.run("send-keys", "-t", "jc", "clear; fg", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`FAKE-AGENT CONTINUED`))
	tm.waitScreen("jc", regexp.MustCompile(`SIZE 30x100`)) // the redraw nudge
	// Read from outside: bash waits for its job, and superclaude owns the
	// terminal's mode.
	if bad := notCooked(tm.paneStty("jc")); !strings.Contains(bad, "-icanon") {
		t.Fatalf("after fg the terminal is not raw again (cooked modes missing: %q)", bad)
	}
	tm.run("send-keys", "-t", "jc", "after", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`KEY:after`))
	tm.run("send-keys", "-t", "jc", "exit 0", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`SC-EXIT=0`))
	if n := len(h.events("start")); n != 1 {
		t.Fatalf("the agent was started %d times; a stop is not a crash", n)
	}
	tm.run("send-keys", "-t", "jc", "stty -a > "+sttyOut+"; echo STTY-AGAIN", "Enter")
	tm.waitScreen("jc", regexp.MustCompile(`(?m)^STTY-AGAIN`))
	if b, _ := os.ReadFile(sttyOut); notCooked(string(b)) != "" {
		t.Fatalf("the terminal is not cooked after superclaude: %s\n%s", notCooked(string(b)), b)
	}
}

// TestCtrlZWithNoShellToResumeFromCarriesOn: when superclaude itself has no
// job-control shell above it (it leads its own session, as in a pane whose
// command it is), the kernel discards its SIGTSTP. The agent must not stay
// stopped with nobody to continue it: superclaude carries on and continues
// it.
func TestCtrlZWithNoShellToResumeFromCarriesOn(t *testing.T) {
	h := newHarness(t)
	p := h.start() // superclaude leads the session of the test's pty
	at := p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	p.Master.Write([]byte{0x1a}) // Ctrl-Z
	at = p.Expect(t, at, "FAKE-AGENT CONTINUED", timeout)
	p.Type("still-here")
	p.Expect(t, at, "KEY:still-here", timeout)
	p.Type("exit 0")
	if code := p.Wait(t, timeout); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
