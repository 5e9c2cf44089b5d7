package supervise

import (
	"fmt"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

func TestScanClaudeArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		oneShot bool
		chose   bool
		restart []string
	}{
		{nil, false, false, nil},
		{[]string{"fix the bug"}, false, false, nil},
		{[]string{"--model", "opus", "fix the bug"}, false, false, []string{"--model", "opus"}},
		{[]string{"-p", "hi"}, true, false, []string{"-p"}},
		{[]string{"--print", "--output-format", "json", "hi"}, true, false, []string{"--print", "--output-format", "json"}},
		{[]string{"mcp", "list"}, true, false, nil},
		{[]string{"doctor"}, true, false, nil},
		{[]string{"--version"}, true, false, []string{"--version"}},
		{[]string{"--resume", "abc", "--model", "x"}, false, true, []string{"--model", "x"}},
		{[]string{"-r"}, false, true, nil},
		{[]string{"-c", "--verbose"}, false, true, []string{"--verbose"}},
		{[]string{"--resume=abc", "go on"}, false, true, nil},
		{[]string{"--session-id", "11111111-2222-4333-8444-555555555555"}, false, true, nil},
		// A variadic option eats what follows until the next option, as
		// commander does: "go" is a directory here, not a prompt.
		{[]string{"--add-dir", "a", "b", "--model", "m", "prompt"}, false, false, []string{"--add-dir", "a", "b", "--model", "m"}},
		{[]string{"--settings", "/tmp/s.json", "--debug", "api"}, false, false, []string{"--settings", "/tmp/s.json", "--debug", "api"}},
		{[]string{"--debug", "--verbose"}, false, false, []string{"--debug", "--verbose"}},
		// The first operand picks a subcommand, after options too, as in
		// commander.
		{[]string{"--model", "m", "doctor"}, true, false, []string{"--model", "m"}},
		{[]string{"--", "-p is a prompt here"}, false, false, nil},
	} {
		inv := ScanClaudeArgs(tc.args)
		if inv.OneShot != tc.oneShot || inv.ChoseConversation != tc.chose || fmt.Sprint(inv.Restart) != fmt.Sprint(tc.restart) {
			t.Errorf("ScanClaudeArgs(%q) = %+v, want oneShot=%v chose=%v restart=%q", tc.args, inv, tc.oneShot, tc.chose, tc.restart)
		}
	}
}

func TestScanClaudeArgsPrintsOnly(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--version"}, true},
		{[]string{"-v"}, true},
		{[]string{"-V"}, true}, // claude's own, not in its --help: it prints its version
		{[]string{"--help"}, true},
		{[]string{"mcp", "--help"}, true},
		{[]string{"-p", "hi", "--version"}, true},
		{[]string{"-p", "hi"}, false},
		{[]string{"mcp", "list"}, false},
		{[]string{"--model", "-v"}, false}, // -v is the model's name here
		{[]string{"what does -v do"}, false},
		{[]string{"--", "--version"}, false},
		{nil, false},
	} {
		if got := ScanClaudeArgs(tc.args); got.PrintsOnly != tc.want || (got.PrintsOnly && !got.OneShot) {
			t.Errorf("ScanClaudeArgs(%q) = %+v, want PrintsOnly=%v", tc.args, got, tc.want)
		}
	}
}

func TestProfileArgs(t *testing.T) {
	user := []string{"--model", "opus", "first prompt"}
	inv := ScanClaudeArgs(user)
	for _, tc := range []struct {
		plan  Plan
		first bool
		want  []string
	}{
		{Plan{Action: Fresh}, true, user},
		// A pane's first start that resumes its conversation: the prompt
		// went to that conversation already, and is not sent again.
		{Plan{Action: Resume, SessionID: "S"}, true, []string{"--model", "opus", "--resume", "S"}},
		{Plan{Action: Fresh, Prompt: "/session continue"}, false, []string{"/session continue", "--model", "opus"}},
		{Plan{Action: Resume, SessionID: "S"}, false, []string{"--model", "opus", "--resume", "S"}},
		{Plan{Action: Fresh}, false, []string{"--model", "opus"}},
	} {
		if got := Claude.Args(user, inv, tc.plan, tc.first); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Args(%v, first=%v) = %q, want %q", tc.plan, tc.first, got, tc.want)
		}
	}
}

// Issue 11: claude's subcommand list was frozen at 2.1.330; a subcommand
// claude adds later was taken as an interactive run, with --settings
// injected. What the installed claude says is asked for a one-word first
// operand superclaude does not know, and only for such a word.
func TestScanClaudeArgsWithTheInstalledClaudesSubcommands(t *testing.T) {
	var asked []string
	known := func(w string) bool { asked = append(asked, w); return w == "newthing" }
	for _, tc := range []struct {
		args    []string
		oneShot bool
	}{
		{[]string{"newthing", "--flag"}, true},
		{[]string{"--model", "m", "newthing"}, true},
		{[]string{"doctor"}, true},
		{[]string{"fix the bug"}, false},
		{[]string{"hello"}, false},
		{[]string{"-p", "hi"}, true},
	} {
		if inv := ScanClaudeArgsWith(tc.args, known); inv.OneShot != tc.oneShot {
			t.Errorf("%q: oneShot %v", tc.args, inv.OneShot)
		}
	}
	if fmt.Sprint(asked) != "[newthing newthing hello]" {
		t.Errorf("asked about %q; a prompt with spaces and a known subcommand must not be looked up", asked)
	}
}

// Claude Code writes what it is doing once it runs; until then the claude
// profile has nothing to say — not an unreadable status, which +status
// would show as unknown.
func TestClaudeNotWrittenYetIsNotUnknown(t *testing.T) {
	r := Running{Process: proc.Identity{PID: 4242424}, Env: []string{"CLAUDE_CONFIG_DIR=" + t.TempDir()}}
	if st, err := Claude.Status(r); st != "" || err != nil {
		t.Fatalf("no sessions file yet: %q, %v; want nothing said", st, err)
	}
}
