package doctor

import (
	"path/filepath"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
)

// +doctor looks at the environment the person's shell gives it, and at
// this superclaude, links resolved.
func TestHereIsThisProcesssEnvironment(t *testing.T) {
	state := t.TempDir()
	t.Setenv(envvar.StateDir, state)
	t.Setenv(envvar.Agent, "/opt/claude")
	t.Setenv("SHELL", "/bin/zsh")
	called := ""
	e, err := Here(func(shell string) ([]byte, error) { called = shell; return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	if e.Agent != "/opt/claude" || e.StateDir != state || e.SHELL != "/bin/zsh" || !filepath.IsAbs(e.Self) ||
		len(e.Version) < len("superclaude ") || e.Version[:len("superclaude ")] != "superclaude " || e.RuntimeDir == nil {
		t.Fatalf("env %+v", e)
	}
	if e.Completion("fish"); called != "fish" {
		t.Fatalf("the completion asked for was %q", called)
	}
}
