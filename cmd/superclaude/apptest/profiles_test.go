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
// there is named, with the shell's 127 — and one that is not on PATH at
// all (no codex installed) says how to get it found.
func TestRunNamesAnUnknownProfileAndAMissingCLI(t *testing.T) {
	emptyPath := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		code int
		want []string
	}{
		{"unknown profile", []string{"+run", "--profile", "codx"}, nil, 2,
			[]string{"--profile codx is not an agent profile", "claude, codex, gemini"}},
		{"missing CLI", []string{"+run", "--profile", "codex", "--agent", "/nonexistent/codex"}, nil, 127,
			[]string{"/nonexistent/codex"}},
		{"no codex on PATH", []string{"+run", "--profile", "codex"}, []string{"SUPERCLAUDE_AGENT=", "PATH=" + emptyPath}, 127,
			[]string{"cannot start codex", "install it, or set SUPERCLAUDE_AGENT to its path"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.env...)
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
