// Package scripts runs superclaude's documented commands as a person types
// them, in testscript files (testdata/*.txtar: github.com/rogpeppe/go-internal
// /testscript, the format of the Go command's own tests): each file is a
// shell-like script of commands and the output they must give, run with the
// built superclaude on PATH, a home of its own, and a stand-in claude that
// says so when it is reached (so that a --help meant for superclaude and
// answered by claude shows). readme_test.go runs the README's examples.
package scripts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// TestScripts runs testdata/*.txtar.
func TestScripts(t *testing.T) {
	bin := filepath.Dir(testbin.Superclaude(t))
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			home := filepath.Join(work, "home")
			claude := filepath.Join(work, "claude-bin")
			for _, d := range []string{home, claude} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					return err
				}
			}
			// claude, as far as these scripts need one: it names itself
			// and its arguments, so that a script sees what reached it.
			stub := "#!/bin/sh\necho \"CLAUDE RAN: $*\"\n"
			if err := os.WriteFile(filepath.Join(claude, "claude"), []byte(stub), 0o755); err != nil {
				return err
			}
			env.Setenv("PATH", bin+":"+claude+":/usr/bin:/bin")
			env.Setenv("SUPERCLAUDE", filepath.Join(bin, "superclaude"))
			env.Setenv("HOME", home)
			env.Setenv("SHELL", "/bin/bash")
			env.Setenv("TERM", "dumb")
			env.Setenv("SUPERCLAUDE_STATE_DIR", filepath.Join(work, "state"))
			env.Setenv("XDG_RUNTIME_DIR", work)
			for _, k := range []string{"TMUX", "TMUX_PANE", "SUPERCLAUDE_SESSIONS_DIR", "SUPERCLAUDE_PANE_ID",
				"CLAUDE_SUPERVISOR_PID", "SUPERCLAUDE_SUPERVISOR", "SUPERCLAUDE_SOCKET", "SUPERCLAUDE_AGENT"} {
				env.Setenv(k, "")
			}
			return nil
		},
	})
}
