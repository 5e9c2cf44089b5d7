package cli

import (
	"fmt"
	"testing"
)

func TestOwnOnlyTakesPlusNamedCommands(t *testing.T) {
	cmds := []string{"+session", "+help", "+statusline", "+hook"}
	for _, tc := range []struct {
		args []string
		own  bool
		rest []string
	}{
		{nil, false, nil},
		{[]string{"-p", "hi"}, false, nil},
		{[]string{"--resume", "X"}, false, nil},
		{[]string{"mcp", "list"}, false, nil},
		{[]string{"doctor"}, false, nil},
		{[]string{"session"}, false, nil}, // a prompt, or a future claude subcommand
		{[]string{"+session", "list", "--json"}, true, []string{"+session", "list", "--json"}},
		{[]string{"+hook", "pre-tool-use"}, true, []string{"+hook", "pre-tool-use"}},
		{[]string{"+"}, true, []string{"+help"}},
		{[]string{"+1 to that, fix it"}, false, nil}, // a prompt
		{[]string{"+sessions"}, false, nil},          // not a command: a prompt
		{[]string{"-p", "+session"}, false, nil},     // only the first argument counts
	} {
		own, rest := Own(tc.args, cmds)
		if own != tc.own || fmt.Sprint(rest) != fmt.Sprint(tc.rest) {
			t.Errorf("Own(%q) = %v %q, want %v %q", tc.args, own, rest, tc.own, tc.rest)
		}
	}
}

// Regression (issue 11): `superclaude +stauts` resumed a conversation and
// sent "+stauts" to the model, paid for.
func TestMistypedCommandsNeverReachTheAgent(t *testing.T) {
	cmds := []string{"+session", "+status", "+statusline", "+help", "+up", "+down", "+why", "+completion"}
	for _, tc := range []struct {
		args    []string
		typo    bool
		suggest string
	}{
		{[]string{"+stauts"}, true, "+status"},
		{[]string{"+sesion", "list"}, true, "+session"},
		{[]string{"+stat"}, true, "+status"},
		{[]string{"+completions", "bash"}, true, "+completion"},
		{[]string{"+frobnicate"}, true, ""},
		// Regression, issue 19: these reached the model as prompts.
		{[]string{"+status."}, true, "+status"},
		{[]string{"++status"}, true, "+status"},
		{[]string{"+why?"}, true, "+why"},
		{[]string{"+++"}, false, ""},
		{[]string{"+1."}, false, ""},
		{[]string{"+status"}, false, ""},
		{[]string{"+1"}, false, ""},
		{[]string{"+1, ship it"}, false, ""},
		{[]string{"fix the bug"}, false, ""},
		{[]string{"-p", "+stauts"}, false, ""},
		{nil, false, ""},
	} {
		typo, suggest := Mistyped(tc.args, cmds)
		if typo != tc.typo || suggest != tc.suggest {
			t.Errorf("Mistyped(%q) = %v %q, want %v %q", tc.args, typo, suggest, tc.typo, tc.suggest)
		}
	}
}
