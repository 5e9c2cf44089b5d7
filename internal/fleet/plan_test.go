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
		{name: "profile's, not on PATH", path: "/nonexistent", err: "command claude is not found on PATH (/nonexistent)"},
		{name: "pane's name", paneCmd: "mine", path: bin, want: "mine"},
		{name: "pane's over fleet's", fleetCmd: "nope", paneCmd: "mine", path: bin, want: "mine"},
		{name: "relative path, made absolute", paneCmd: "bin/mine", path: "/nonexistent", want: filepath.Join(bin, "mine")},
		{name: "not executable", paneCmd: "./bin/plain", err: "is not executable"},
		{name: "a directory", paneCmd: "./bin", err: "is a directory"},
		{name: "an absolute path named once", paneCmd: "/opt/none/codex", err: "command /opt/none/codex does not exist"},
		{name: "SUPERCLAUDE_AGENT", env: "mine", path: bin, want: ""},
		{name: "SUPERCLAUDE_AGENT missing", env: "gone", path: bin, err: "command gone is not found on PATH"},
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

// Regression: a pane whose directory was missing was not checked further,
// so its command's problem appeared only at the next +up, once the
// directory had been made. plan names both at once, each on its own line
// (a pane's problems, then the next pane's), and only the directory for a
// command relative to it.
func TestPlanNamesEveryProblemAtOnce(t *testing.T) {
	dir := t.TempDir()
	s := &Spec{File: filepath.Join(dir, "work.toml"), Name: "company", Windows: []Window{{Name: "company", Panes: []Pane{
		{Label: "SDK", Dir: "sdk", Command: "/opt/none/codex"},
		{Label: "API", Dir: "api", Command: "./run-agent"},
	}}}}
	_, err := s.plan(Options{Env: []string{"PATH=" + dir}}, func(Window, Pane) bool { return true })
	if err == nil {
		t.Fatal("plan found no problem")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`window "company" pane "SDK": working directory ` + filepath.Join(dir, "sdk") + ` does not exist`,
		`window "company" pane "SDK": command /opt/none/codex does not exist`,
		`window "company" pane "API": working directory ` + filepath.Join(dir, "api") + ` does not exist`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan said:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
}
