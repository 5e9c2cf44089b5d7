package main

import (
	"strings"
	"testing"
	"time"
)

// The status line and the hooks are answered from internal/callback's
// initialiser, before cobra, the supervisor and the dashboard initialise
// (issue 22: a callback is timed against a bare Go program, and what it
// pays over that is Go's start and the initialisers linked in). Go orders
// initialisers by import path and dependencies; an import added to the
// callback's packages can move it after them and silently cost every
// tick. GODEBUG=inittrace=1 prints a line per package initialised before
// the process ends.
func TestCallbacksComeBeforeTheHeavyInitialisers(t *testing.T) {
	dir, env := overflowedSession(t)
	env = append(env, "GODEBUG=inittrace=1")
	heavy := []string{"github.com/spf13/cobra", "github.com/superclaude/superclaude/supervise",
		"github.com/superclaude/superclaude/internal/dashboard", "github.com/charmbracelet/ultraviolet"}
	tick := sampleText(t, "statusline-after-turn-175k.json")
	hook := sampleText(t, "hook-PreToolUse.json")
	for _, c := range []struct {
		stdin string
		args  []string
	}{{tick, []string{"+statusline"}}, {hook, []string{"+hook", "pre-tool-use"}}} {
		out, trace, _ := runFor(t, 10*time.Second, dir, env, c.stdin, c.args...)
		if out == "" || !strings.Contains(trace, "init github.com/superclaude/superclaude/internal/agentside @") {
			t.Fatalf("%v printed %q; inittrace:\n%s", c.args, out, trace)
		}
		for _, p := range heavy {
			if strings.Contains(trace, "init "+p+" @") {
				t.Errorf("%s initialised before %v was answered:\n%s", p, c.args, trace)
			}
		}
	}
}

// The early answer is the one main gives: the same line for a tick, the
// same decision and exit code for a hook. A form the early path leaves to
// main (an extra argument, `--` before the event) is answered by main,
// with the same functions; help is still cobra's.
func TestCallbacksAnswerAsMainDoes(t *testing.T) {
	dir, env := overflowedSession(t)
	tick := sampleText(t, "statusline-after-turn-175k.json")
	early, _, code1 := runFor(t, 10*time.Second, dir, env, tick, "+statusline")
	late, _, code2 := runFor(t, 10*time.Second, dir, env, tick, "+statusline", "ignored")
	if early != late || code1 != 0 || code2 != 0 || !strings.Contains(early, "ctx 18%") {
		t.Errorf("status line: early %q (%d), main %q (%d)", early, code1, late, code2)
	}
	hook := sampleText(t, "hook-PreToolUse.json")
	early, _, code1 = runFor(t, 10*time.Second, dir, env, hook, "+hook", "pre-tool-use")
	late, _, code2 = runFor(t, 10*time.Second, dir, env, hook, "+hook", "--", "pre-tool-use")
	if early != late || code1 != code2 || !strings.Contains(early, `"permissionDecision":"deny"`) {
		t.Errorf("hook on an overflowed session: early %q (%d), main %q (%d)", early, code1, late, code2)
	}
	if help, _, code := runFor(t, 10*time.Second, dir, env, "", "+hook", "--help"); code != 0 || !strings.Contains(help, "Usage:") {
		t.Errorf("+hook --help: %d %q", code, help)
	}
}
