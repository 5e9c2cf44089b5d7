package apptest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Bad input to +run gets a clear message and leaves nothing behind
// (issue 16): an unknown profile names the known ones; a CLI that is not
// there is named, with the shell's 127.
func TestRunNamesAnUnknownProfileAndAMissingCLI(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"unknown profile", []string{"+run", "--profile", "codx"}, 2,
			[]string{`unknown profile "codx"`, "claude, codex, gemini"}},
		{"missing CLI", []string{"+run", "--profile", "codex", "--agent", "/nonexistent/codex"}, 127,
			[]string{"/nonexistent/codex"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			out, err := h.command(tc.args...).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit %v, want %d:\n%s", err, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the message does not say %q:\n%s", w, out)
				}
			}
			if _, err := os.Stat(h.sessions); err == nil {
				t.Errorf("a run that never started left a sessions directory")
			}
		})
	}
}
