package fleet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
)

// TestAgentCommandFindsWhatThePaneWillRun: the executable a pane's
// supervisor will start is the pane's command, else the fleet's, else the
// pane's $SUPERCLAUDE_AGENT, else its profile's — each looked up as the
// pane will, on the pane's PATH or relative to its dir.
func TestAgentCommandFindsWhatThePaneWillRun(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o700)
	for _, name := range []string{"claude", "mine"} {
		os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o700)
	}
	os.WriteFile(filepath.Join(bin, "plain"), []byte("not executable"), 0o600)
	for _, c := range []struct {
		name                   string
		fleetCmd, paneCmd, env string
		agent, path            string
		want, err              string
	}{
		{name: "profile's, on PATH", path: bin, want: ""},
		{name: "profile's, not on PATH", path: "/nonexistent", err: "agent claude: not found on PATH (/nonexistent)"},
		{name: "pane's name", paneCmd: "mine", path: bin, want: "mine"},
		{name: "pane's over fleet's", fleetCmd: "nope", paneCmd: "mine", path: bin, want: "mine"},
		{name: "relative path, made absolute", paneCmd: "bin/mine", path: "/nonexistent", want: filepath.Join(bin, "mine")},
		{name: "not executable", paneCmd: "./bin/plain", err: "is not executable"},
		{name: "a directory", paneCmd: "./bin", err: "is a directory"},
		{name: "SUPERCLAUDE_AGENT", env: "mine", path: bin, want: ""},
		{name: "SUPERCLAUDE_AGENT missing", env: "gone", path: bin, err: "agent gone: not found on PATH"},
		{name: "generic needs a command", agent: "generic", path: bin, err: `agent "generic" has no default command`},
	} {
		s := &Spec{Command: c.fleetCmd}
		p := Pane{Command: c.paneCmd, Agent: c.agent}
		lookup := func(k string) string {
			return map[string]string{"PATH": c.path, envvar.Agent: c.env}[k]
		}
		got, err := s.agentCommand(p, dir, lookup)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && got != c.want:
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
