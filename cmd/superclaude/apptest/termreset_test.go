package apptest

import (
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// paneFlags reads tmux's view of the pane's terminal modes.
func (s *tmuxServer) paneFlags(target string) map[string]string {
	s.t.Helper()
	names := []string{"alternate_on", "cursor_flag", "mouse_any_flag", "mouse_all_flag", "mouse_button_flag",
		"mouse_standard_flag", "mouse_sgr_flag", "keypad_flag", "keypad_cursor_flag"}
	var f strings.Builder
	for _, n := range names {
		f.WriteString(n + "=#{" + n + "} ")
	}
	out := s.run("display-message", "-p", "-t", target, f.String())
	flags := map[string]string{}
	for _, kv := range strings.Fields(out) {
		k, v, _ := strings.Cut(kv, "=")
		flags[k] = v
	}
	return flags
}

// leftOn lists the modes a pane still has on, of those the fake agent's
// "modes" command switches on.
func leftOn(flags map[string]string) []string {
	var on []string
	for k, v := range flags {
		if (k == "cursor_flag" && v != "1") || (k != "cursor_flag" && v != "0") {
			on = append(on, k+"="+v)
		}
	}
	return on
}

// TestModesOfAKilledAgentAreSwitchedOff is issue 9's "agent terminal modes
// outlive the agent": a killed agent never undoes its alternate screen,
// hidden cursor or mouse reporting, and superclaude's message landed on the
// alternate screen. In a real tmux pane: an agent switches them on and is
// killed — once with SIGKILL (a crash: the next agent starts on a clean
// terminal), then through superclaude's SIGTERM (its message lands on the
// normal screen, with the modes off).
func TestModesOfAKilledAgentAreSwitchedOff(t *testing.T) {
	tm := newTmux(t)
	h := newHarness(t)
	tm.run("new-session", "-d", "-s", "tr", "-x", "100", "-y", "30", "sh")
	tm.run("send-keys", "-t", "tr", "sh "+h.script(), "Enter")
	tm.waitScreen("tr", regexp.MustCompile(`FAKE-AGENT READY`))
	clean := tm.paneFlags("tr")
	if on := leftOn(clean); len(on) > 0 {
		t.Fatalf("modes on before the agent switched any on: %v", on)
	}

	// 1. Killed outright: the supervisor restarts it.
	tm.run("send-keys", "-t", "tr", "modes", "Enter")
	tm.waitScreen("tr", regexp.MustCompile(`MODES ON`))
	if on := leftOn(tm.paneFlags("tr")); len(on) < 5 {
		t.Fatalf("the agent's modes did not reach the pane: %v", on)
	}
	first := h.waitStarts(1, timeout)[0]
	syscall.Kill(first.PID, syscall.SIGKILL)
	second := h.waitStarts(2, timeout)[1]
	// The pane's output is parsed in order: once the new agent's line is
	// on the screen, what superclaude wrote before its start is too.
	tm.waitScreen("tr", regexp.MustCompile(`FAKE-AGENT READY pid=`+strconv.Itoa(second.PID)))
	if on := leftOn(tm.paneFlags("tr")); len(on) > 0 {
		t.Fatalf("after the agent was killed and restarted, still on: %v", on)
	}

	// 2. Ended by superclaude: its message on the normal screen.
	tm.run("send-keys", "-t", "tr", "modes", "Enter")
	tm.waitScreen("tr", regexp.MustCompile(`MODES ON`))
	sup, _ := strconv.Atoi(first.Env["CLAUDE_SUPERVISOR_PID"])
	syscall.Kill(sup, syscall.SIGTERM)
	screen := tm.waitScreen("tr", regexp.MustCompile(`SC-EXIT=143`))
	if on := leftOn(tm.paneFlags("tr")); len(on) > 0 {
		t.Fatalf("after superclaude stopped its agent, still on: %v", on)
	}
	if !strings.Contains(screen, "superclaude: stopped on SIGTERM") {
		t.Fatalf("superclaude's message is not on the normal screen:\n%s", screen)
	}
}
