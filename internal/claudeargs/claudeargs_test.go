package claudeargs

import (
	"slices"
	"strings"
	"testing"
)

// The command line's grammar is tested through supervise.ScanClaudeArgs,
// the profile that uses it (supervise/claude_test.go); here, what is
// easiest to get wrong without strings.HasPrefix.

// TestADashIsAnOptionalValue: "-" (stdin, for some tools) is taken as the
// value of an option whose value is optional, as commander's maybeOption
// says it is no option (a hostile tester read commander).
func TestADashIsAnOptionalValue(t *testing.T) {
	inv := Scan([]string{"--debug", "-", "--resume", "-", "-d", "-", "doctor"}, nil)
	if !inv.ChoseConversation || !inv.OneShot || !slices.Equal(inv.Restart, []string{"--debug", "-", "-d", "-"}) {
		t.Errorf("Scan: %+v; want --debug - and -d - kept, --resume dropped, doctor a subcommand", inv)
	}
}

// TestASubcommandAfterDoubleDashIsStillOne: commander looks the first
// operand up as a subcommand even after "--".
func TestASubcommandAfterDoubleDashIsStillOne(t *testing.T) {
	if inv := Scan([]string{"--", "doctor"}, nil); !inv.OneShot {
		t.Errorf("Scan(-- doctor) is not one-shot")
	}
	if inv := Scan([]string{"--", "fix", "doctor"}, nil); inv.OneShot {
		t.Errorf("Scan(-- fix doctor) is one-shot; fix is the prompt")
	}
}

// FuzzScan: any command line (arguments separated by NUL in the fuzzer's
// string) is read without a panic, and what a restart keeps is the user's
// own arguments, in their order (unless short options are written
// together: those are rewritten). ("--" as the value of an option that
// requires one is a value, as for commander: `--model --` keeps both.)
func FuzzScan(f *testing.F) {
	for _, seed := range []string{
		"-p\x00hi", "--model\x00opus\x00-p", "mcp\x00list", "--resume\x00abc\x00fix it",
		"--add-dir\x00a\x00b\x00--\x00-p", "--model\x00--resume\x00x", "--debug=api\x00-", "", "-\x00--",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		inv := Scan(args, func(w string) bool { return len(w)%2 == 0 })
		end := len(args)
		if len(args) > 0 && args[0] == "--" {
			end = 0 // nothing is an option after a leading --
		}
		together := slices.ContainsFunc(args[:end], func(a string) bool { return len(a) > 2 && a[1] != '-' && short(a[:2]) })
		i := 0
		for _, kept := range inv.Restart {
			for i < end && args[i] != kept {
				i++
			}
			// Short options written together are rewritten without the
			// conversation's letters (TestShortOptionsWrittenTogether).
			if i == end && !together {
				t.Fatalf("Scan(%q).Restart = %q: not the user's arguments in order", args, inv.Restart)
			}
			i++
		}
		if len(inv.values) != len(args) || len(args) > 0 && inv.values[0] {
			t.Fatalf("Scan(%q): values %v; want one per argument, the first never a value", args, inv.values)
		}
		if inv.PrintsOnly && !inv.OneShot {
			t.Fatalf("Scan(%q): prints only but not one-shot", args)
		}
	})
}

// TestShortOptionsWrittenTogether: commander reads `-cp` as -c -p, and
// gives the first letter that takes a value the rest of the word, or the
// next argument when it is the last letter.
func TestShortOptionsWrittenTogether(t *testing.T) {
	for _, tc := range []struct {
		args                          []string
		oneShot, prints, conversation bool
		restart                       []string
	}{
		{[]string{"-cp", "x"}, true, false, true, []string{"-p"}},
		{[]string{"-pc", "x"}, true, false, true, []string{"-p"}},
		{[]string{"-pv"}, true, true, false, []string{"-pv"}},
		{[]string{"-dp", "x"}, false, false, false, []string{"-dp"}}, // --debug p, prompt x
		{[]string{"-cd", "api", "x"}, false, false, true, []string{"-d", "api"}},
		{[]string{"-cd", "-p"}, true, false, true, []string{"-d", "-p"}},
		{[]string{"-cn", "-x"}, false, false, true, []string{"-n", "-x"}}, // a required value
		{[]string{"-cr", "abc"}, false, false, true, nil},
		{[]string{"-cx"}, false, false, true, []string{"-x"}},
		{[]string{"-xp"}, false, false, false, []string{"-xp"}}, // not claude's: one unknown option
	} {
		inv := Scan(tc.args, nil)
		if inv.OneShot != tc.oneShot || inv.PrintsOnly != tc.prints || inv.ChoseConversation != tc.conversation ||
			!slices.Equal(inv.Restart, tc.restart) {
			t.Errorf("Scan(%q) = %+v; want one-shot %v, prints only %v, conversation %v, restart %q",
				tc.args, inv, tc.oneShot, tc.prints, tc.conversation, tc.restart)
		}
	}
}
