package handover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
)

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     []string
		command string // "" means not taken
		kind    Kind   // Exec unless said
	}{
		{"--version", []string{"--version"}, nil, "claude", None},
		{"-v", []string{"-v"}, []string{"HOME=/h", "PATH=/bin"}, "claude", None},
		{"the agent from the environment", []string{"--version"}, []string{"SUPERCLAUDE_AGENT=/opt/claude"}, "/opt/claude", None},
		{"the first of two agents, as os.Getenv", []string{"--version"},
			[]string{"SUPERCLAUDE_AGENT=/first", "SUPERCLAUDE_AGENT=/second"}, "/first", None},
		{"an empty first agent counts, as for os.Getenv", []string{"--version"},
			[]string{"SUPERCLAUDE_AGENT=", "SUPERCLAUDE_AGENT=/second"}, "claude", None},
		{"the claude profile named", []string{"--version"}, []string{"SUPERCLAUDE_PROFILE=claude"}, "claude", None},
		{"directories only a supervised run uses", []string{"--version"},
			[]string{"SUPERCLAUDE_STATE_DIR=/s", "SUPERCLAUDE_SESSIONS_DIR=/t"}, "claude", None},
		{"-V", []string{"-V"}, nil, "claude", None},
		{"an empty profile is the default", []string{"--version"}, []string{"SUPERCLAUDE_PROFILE="}, "claude", None},
		{"an empty option is still there for main", []string{"--version"}, []string{"SUPERCLAUDE_GRACE="}, "", None},
		{"an empty internal variable main looks up", []string{"--version"}, []string{"SUPERCLAUDE_PTY_LEADER="}, "", None},

		{"no arguments", nil, nil, "", None},
		{"bare help gets superclaude's footer", []string{"--help"}, nil, "", None},
		{"more than the version", []string{"--version", "--debug"}, nil, "claude", Exec},
		{"help with more", []string{"--help", "--verbose"}, nil, "claude", Exec},
		{"a subcommand", []string{"mcp", "list"}, nil, "claude", Child},
		{"print mode after options", []string{"--model", "opus", "--output-format", "json", "-p", "hi"}, nil, "claude", Child},
		{"a word only the installed claude can tell", []string{"frobnicate"}, nil, "", None},
		{"an interactive prompt", []string{"fix the tests"}, nil, "", None},
		{"an interactive run", []string{"--model", "opus"}, nil, "", None},
		{"print mode", []string{"-p", "hi"}, nil, "claude", Child},
		{"print mode, long", []string{"--print", "hi", "--output-format", "json"}, nil, "claude", Child},
		{"print mode, its agent from the environment", []string{"-p", "hi"}, []string{"SUPERCLAUDE_AGENT=/opt/claude"}, "/opt/claude", Child},
		{"print mode with superclaude's option", []string{"-p", "hi", "--resume-policy", "never"}, nil, "", None},
		{"print mode with superclaude's option inline", []string{"-p", "--resume-policy=never", "hi"}, nil, "", None},
		{"print mode, the option after -- is the prompt's", []string{"-p", "--", "--resume-policy"}, nil, "claude", Child},
		{"print mode, an option main parses", []string{"-p", "hi"}, []string{"SUPERCLAUDE_GRACE=5s"}, "", None},
		{"-p further along may be a value", []string{"--append-system-prompt", "-p"}, nil, "", None},
		{"a prompt first", []string{"hi", "-p"}, nil, "claude", Child},
		{"own command", []string{"+version"}, nil, "", None},
		// Regression, issue 19: `superclaude +status --help` printed
		// claude's help, which knows nothing of +status.
		{"help after an own command is superclaude's", []string{"+status", "--help"}, nil, "", None},
		{"-h after an own subcommand is superclaude's", []string{"+session", "activate", "-h"}, nil, "", None},
		{"version after an own command is superclaude's", []string{"+run", "--version"}, nil, "", None},
		{"a prompt starting with + is main's to tell", []string{"+1, ship it", "-p"}, nil, "", None},
		{"another profile", []string{"--version"}, []string{"SUPERCLAUDE_PROFILE=generic"}, "", None},
		{"an option main parses", []string{"--version"}, []string{"SUPERCLAUDE_GRACE=soon"}, "", None},
		{"an option added later", []string{"--version"}, []string{"SUPERCLAUDE_SOMETHING_NEW=1"}, "", None},
		{"no value at all", []string{"--version"}, []string{"SUPERCLAUDE_GRACE"}, "claude", None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.kind
			if tc.command == "" {
				want = None
			} else if want == None {
				want = Exec
			}
			command, kind := Decide(tc.args, tc.env)
			if kind != want || kind != None && command != tc.command {
				t.Errorf("Decide(%q, %q) = %q, %v; want %q, %v", tc.args, tc.env, command, kind, tc.command, want)
			}
		})
	}
}

// NextAgent: a copy of superclaude started as the agent hands over to the
// next claude on PATH that is neither itself nor a file already started,
// so that a chain of copies moves on and ends.
func TestNextAgent(t *testing.T) {
	dir := t.TempDir()
	file := func(sub, content string) string {
		d := filepath.Join(dir, sub)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "claude")
		if err := os.WriteFile(p, []byte(content), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	d, e, real := file("d", "copy d"), file("e", "copy e"), file("real", "real")
	file("sc", "unused")
	file("w", "unused")
	sc := filepath.Join(dir, "sc", "superclaude")
	if err := os.WriteFile(sc, []byte("superclaude"), 0o700); err != nil {
		t.Fatal(err)
	}
	wrap := filepath.Join(dir, "w", "wrap.sh")
	if err := os.WriteFile(wrap, []byte("#!/bin/sh\nexec claude \"$@\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	d2 := filepath.Join(dir, "d2")
	if err := os.Symlink(filepath.Join(dir, "d"), d2); err != nil {
		t.Fatal(err)
	}
	path := func(subs ...string) string {
		var out []string
		for _, s := range subs {
			out = append(out, filepath.Join(dir, s))
		}
		return strings.Join(out, ":")
	}
	for _, tc := range []struct {
		name     string
		started  []string
		self     string
		argv0    string
		pathList string
		want     string // "" means an error
	}{
		{"the copy d passes over itself", []string{d}, d, "claude", path("d", "real"), real},
		{"and over another copy's file once started", []string{d, e}, e, "claude", path("d", "e", "real"), real},
		{"a copy not yet started is the next hop", []string{d}, d, "claude", path("d", "e", "real"), e},
		{"the order of PATH cannot bring a started file back", []string{e, d}, d, "claude", path("e", "d", "e", "real"), real},
		{"the same file by another directory is passed over", []string{d}, d, "claude", path("d2", "real"), real},
		{"only copies", []string{d, e}, e, "claude", path("d", "e"), ""},
		{"a wrapper agent's own name is nowhere: the name it ran", []string{wrap}, sc, "claude", path("real"), real},
		{"a wrapper that ran superclaude by its own name", []string{wrap}, sc, "superclaude", path("real", "sc"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NextAgent(tc.started, tc.pathList, tc.self, tc.argv0)
			if tc.want == "" {
				if err == nil {
					t.Errorf("NextAgent = %q, want an error", got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("NextAgent = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestSplitListAndSetEnv(t *testing.T) {
	if got := splitList("a::b:"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("splitList = %q", got)
	}
	env := setEnv([]string{"A=1", "SUPERCLAUDE_AGENT_FILE=x", "SUPERCLAUDE_AGENT_FILES=y"}, envvar.AgentFile, "z")
	if strings.Join(env, " ") != "A=1 SUPERCLAUDE_AGENT_FILES=y SUPERCLAUDE_AGENT_FILE=z" {
		t.Errorf("setEnv = %q", env)
	}
}

func TestStartedAsAgent(t *testing.T) {
	p := []string{"-p", "hi"}
	for _, tc := range []struct {
		name   string
		args   []string
		parent string
		ppid   int
		want   bool
	}{
		{"the agent", p, envvar.AgentParentValue(42, p), 42, true},
		{"no arguments", nil, envvar.AgentParentValue(42, nil), 42, true},
		{"an empty argument", []string{""}, envvar.AgentParentValue(42, []string{""}), 42, true},
		{"another process's child", p, envvar.AgentParentValue(42, p), 43, false},
		{"no agent started", p, "", 42, false},
		{"an orphan adopted, with its own arguments", []string{"-p", "orphan"}, envvar.AgentParentValue(42, p), 42, false},
		{"arguments split otherwise", []string{"-p h", "i"}, envvar.AgentParentValue(42, p), 42, false},
		{"a wrapper's own arguments before the agent's", []string{"--model", "opus", "-p", "hi"}, envvar.AgentParentValue(42, p), 42, true},
		{"arguments after the agent's", []string{"-p", "hi", "--verbose"}, envvar.AgentParentValue(42, p), 42, false},
		{"fewer than the agent's", []string{"hi"}, envvar.AgentParentValue(42, p), 42, false},
		{"a count that does not parse", p, "42:x:0", 42, false},
		{"a parent that adopts, not there to ask (beyond pid_max)", p, envvar.AgentParentValue(4194399, p) + envvar.Adopts, 4194399, true},
		{"the pid alone, as an older build wrote", p, "42", 42, false},
		{"pid and hash, as an older build wrote", p, "42:" + envvar.AgentParentValue(42, p)[5:], 42, false},
		{"superclaude's own command", []string{"+session", "list"}, envvar.AgentParentValue(42, []string{"+session", "list"}), 42, false},
	} {
		if got := startedAsAgent(tc.args, tc.parent, tc.ppid); got != tc.want {
			t.Errorf("%s: startedAsAgent(%q, %q, %d) = %v, want %v", tc.name, tc.args, tc.parent, tc.ppid, got, tc.want)
		}
	}
}
