package launch

import (
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/claudeargs"
	"github.com/superclaude/superclaude/internal/envvar"
)

// Every option read from the environment refuses a bad value with an error
// that names the variable. (Regression: SUPERCLAUDE_OVERFLOW_THRESHOLD=76,
// meant as 76 %, was silently ignored and the default applied.)
func TestBadOptionsInTheEnvironmentAreRefusedByName(t *testing.T) {
	for _, tc := range []struct {
		env, value string
		ok         bool
	}{
		{envvar.OverflowThreshold, "0.76", true},
		{envvar.OverflowThreshold, "1", true},
		{envvar.OverflowThreshold, "76", false},
		{envvar.OverflowThreshold, "0", false},
		{envvar.OverflowThreshold, "abc", false},
		{envvar.Grace, "2s", true},
		{envvar.Grace, "5", false},
		{envvar.MaxCrashes, "0", false},
		{envvar.LimitContinue, "maybe", false},
		{envvar.DehydrateWait, "-1s", false},
		{envvar.ResumePolicy, "never", true},
		{envvar.ResumePolicy, "maybe", false},
		{envvar.Profile, "codex", true},
		{envvar.Profile, "nosuch", false},
	} {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			_, err := FromEnv()
			if tc.ok != (err == nil) {
				t.Fatalf("FromEnv with %s=%s: %v", tc.env, tc.value, err)
			}
			if err != nil && !strings.Contains(err.Error(), tc.env) {
				t.Errorf("the error does not name %s: %v", tc.env, err)
			}
		})
	}
}

// Regression: the exit hint always said `superclaude --resume <id>`, which
// fails where superclaude is not on PATH: started as ./bin/superclaude (the
// README's first command) or installed as claude. It names superclaude as
// the person started it.
func TestHintCommandIsHowThePersonStartedIt(t *testing.T) {
	for argv0, want := range map[string]string{
		"superclaude":                     "superclaude",
		"claude":                          "claude",
		"./bin/superclaude":               "./bin/superclaude",
		"/home/me/.local/bin/superclaude": "/home/me/.local/bin/superclaude",
		"/my dir/superclaude":             "superclaude", // would need quoting
		"$(evil)":                         "superclaude",
		"-superclaude":                    "superclaude", // a login shell's style
		"":                                "superclaude",
	} {
		if got := hintCommand(argv0); got != want {
			t.Errorf("hintCommand(%q) = %q, want %q", argv0, got, want)
		}
	}
}

// TestResumePolicyIsCutOnlyWhereItIsAnOption: superclaude's own option on
// claude's command line is taken out only where claude would read an
// option; as the value of one of claude's options it is claude's (a
// hostile tester found `--append-system-prompt --resume-policy hello`
// lost both words).
func TestResumePolicyIsCutOnlyWhereItIsAnOption(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		policy string
		rest   []string
	}{
		{[]string{"--resume-policy", "never", "-p", "hi"}, "never", []string{"-p", "hi"}},
		{[]string{"--model", "x", "--resume-policy=always"}, "always", []string{"--model", "x"}},
		{[]string{"-p", "--append-system-prompt", "--resume-policy", "hello"}, "", []string{"-p", "--append-system-prompt", "--resume-policy", "hello"}},
		{[]string{"--model", "--", "--resume-policy", "never"}, "never", []string{"--model", "--"}},
		{[]string{"--", "--resume-policy", "never"}, "", []string{"--", "--resume-policy", "never"}},
	} {
		policy, rest, err := cutOption(tc.args, optResume, claudeargs.Values(tc.args))
		if err != nil || policy != tc.policy || !slices.Equal(rest, tc.rest) {
			t.Errorf("cutOption(%q) = %q, %q, %v; want %q, %q", tc.args, policy, rest, err, tc.policy, tc.rest)
		}
	}
}
