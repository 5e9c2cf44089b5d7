package agentside

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
)

// Whatever claude feeds a hook on stdin, the hook never breaks claude's
// turn: bad input is answered with nothing and exit 0.
func TestHookOnBadInputLetsTheTurnGoOn(t *testing.T) {
	root := t.TempDir()
	t.Setenv(envvar.StateDir, filepath.Join(root, "state"))
	t.Setenv(envvar.SessionsDir, filepath.Join(root, "sessions"))
	for _, in := range []string{"", "{not json", "\x00\x01"} {
		var out, errOut strings.Builder
		if code := Hook("pre-tool-use", strings.NewReader(in), &out, &errOut); code != 0 || out.String() != "" {
			t.Errorf("hook on %q: exit %d, %q %q", in, code, out.String(), errOut.String())
		}
	}
	var out, errOut strings.Builder
	if code := Hook("no-such-hook", strings.NewReader("{}"), &out, &errOut); code != 0 || out.String() != "" {
		t.Errorf("an unknown hook: exit %d, %q", code, out.String())
	}
}
