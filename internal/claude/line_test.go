package claude

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
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

// Issue 18: no stale advice. The fresh claude of an overflow restart,
// until it activates the session, was told to dehydrate again by its own
// status line; with continuing off, "continues at" promised what would
// not happen.
func TestStatusLineAdviceIsTrueNow(t *testing.T) {
	pct := func(f float64) StatusLine {
		var s StatusLine
		s.ContextWindow.UsedPercentage = &f
		return s
	}
	reset := now.Add(time.Hour)
	for _, tc := range []struct {
		name      string
		mut       func(st *stateT)
		tick      StatusLine
		want, not string
	}{
		{"the old context overflowed: advice", func(st *stateT) { st.Overflowed = true }, pct(80), "OVERFLOW", ""},
		{"the fresh context after a restart: none", func(st *stateT) {
			st.Overflowed, st.Lifecycle, st.Handoff = true, "restarting", "overflow restart requested"
		}, pct(2), "fresh context after a restart", "OVERFLOW"},
		{"the fresh context at startup (no usage yet): none", func(st *stateT) {
			st.Overflowed, st.Lifecycle = true, "restarting"
		}, StatusLine{}, "fresh context", "OVERFLOW"},
		{"the fresh context overflowed too: advice", func(st *stateT) {
			st.Overflowed, st.Lifecycle = true, "restarting"
		}, pct(90), "OVERFLOW", "fresh context"},
		{"a limit superclaude continues", func(st *stateT) {
			st.Limit, st.LimitedUntil, st.LimitContinue = "5-hour usage limit", reset, state.LimitBySuperclaude
		}, pct(10), "continues at", ""},
		{"a limit with continuing off", func(st *stateT) {
			st.Limit, st.LimitedUntil, st.LimitContinue = "5-hour usage limit", reset, state.LimitByNobody
		}, pct(10), "resets at", "continues at"},
		{"a limit claude continues itself", func(st *stateT) {
			st.Limit, st.LimitedUntil, st.LimitContinue = "5-hour usage limit", reset, state.LimitByClaude
		}, pct(10), "claude continues after", "· continues at"},
	} {
		st := base()
		tc.mut(st)
		got := Render(Line("S", st, tc.tick, 0), false)
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("%s: %q (want %q, not %q)", tc.name, got, tc.want, tc.not)
		}
	}
}

type stateT = state.State

// claude clears the screen as it starts, so what superclaude has to tell
// the person after a restart goes on the status line, on a line of its
// own, made safe like every field.
func TestRenderShowsANoticeOnALineOfItsOwn(t *testing.T) {
	got := Render(LineInfo{Session: "S", Notice: "superclaude: keys typed during the restart not passed on: Esc\x1b]52;c;x\x07"}, false)
	first, second, ok := strings.Cut(got, "\n")
	if !ok || !strings.HasPrefix(first, "S · ") || second != "superclaude: keys typed during the restart not passed on: Esc]52;c;x" {
		t.Fatalf("%q", got)
	}
	if strings.Contains(Render(LineInfo{Session: "S"}, false), "\n") {
		t.Fatal("a line without a notice has two lines")
	}
}
