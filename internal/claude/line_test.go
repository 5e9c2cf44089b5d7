package claude

import (
	"strings"
	"testing"
)

// Regression: raw escape sequences in a model name (from claude's status-
// line JSON), a phase or a pane id (from the state file) reached the
// terminal through the status line.
func TestAttackEscapesInModelPhaseAndSessionNeverReachTheStatusLine(t *testing.T) {
	in := LineInfo{
		Session: "s\x1b]0;pwned\x07", Skill: "impl\x1b[8m", Phase: "\x1b[2J\x1b[HPhase 2",
		Model: "\x1b]52;c;ZXZpbA==\x07Opus", Lifecycle: "active", Target: "/x/\x1b[31mLOG.md",
		Problem: "", CostUSD: 1, Usage: 0.9, HasUsage: true,
	}
	for _, color := range []bool{false, true} {
		got := Render(in, color)
		// Our own colours are the only escapes allowed.
		rest := got
		for _, c := range []string{green, yellow, red, dim, reset} {
			rest = strings.ReplaceAll(rest, c, "")
		}
		if strings.ContainsAny(rest, "\x1b\x07") {
			t.Errorf("color=%v: status line carries foreign escapes: %q", color, got)
		}
		if !strings.Contains(got, "Phase 2") || !strings.Contains(got, "Opus") {
			t.Errorf("color=%v: the text around the escapes was lost: %q", color, got)
		}
	}
	in = LineInfo{Problem: "bad \x1b[5m input"}
	if got := Render(in, false); strings.Contains(got, "\x1b") {
		t.Errorf("problem: %q", got)
	}
}
