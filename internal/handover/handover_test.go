package handover

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     []string
		command string // "" means not handed over
	}{
		{"--version", []string{"--version"}, nil, "claude"},
		{"-v", []string{"-v"}, []string{"HOME=/h", "PATH=/bin"}, "claude"},
		{"the agent from the environment", []string{"--version"}, []string{"SUPERCLAUDE_AGENT=/opt/claude"}, "/opt/claude"},
		{"the first of two agents, as os.Getenv", []string{"--version"},
			[]string{"SUPERCLAUDE_AGENT=/first", "SUPERCLAUDE_AGENT=/second"}, "/first"},
		{"an empty first agent counts, as for os.Getenv", []string{"--version"},
			[]string{"SUPERCLAUDE_AGENT=", "SUPERCLAUDE_AGENT=/second"}, "claude"},
		{"the claude profile named", []string{"--version"}, []string{"SUPERCLAUDE_PROFILE=claude"}, "claude"},
		{"directories only a supervised run uses", []string{"--version"},
			[]string{"SUPERCLAUDE_STATE_DIR=/s", "SUPERCLAUDE_SESSIONS_DIR=/t"}, "claude"},
		{"an empty option is unset", []string{"--version"}, []string{"SUPERCLAUDE_GRACE="}, "claude"},

		{"no arguments", nil, nil, ""},
		{"bare help gets superclaude's footer", []string{"--help"}, nil, ""},
		{"more than the version", []string{"--version", "--debug"}, nil, ""},
		{"a prompt", []string{"-p", "hi"}, nil, ""},
		{"own command", []string{"+version"}, nil, ""},
		{"another profile", []string{"--version"}, []string{"SUPERCLAUDE_PROFILE=generic"}, ""},
		{"an option main parses", []string{"--version"}, []string{"SUPERCLAUDE_GRACE=soon"}, ""},
		{"an option added later", []string{"--version"}, []string{"SUPERCLAUDE_SOMETHING_NEW=1"}, ""},
		{"no value at all", []string{"--version"}, []string{"SUPERCLAUDE_GRACE"}, "claude"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			command, ok := Decide(tc.args, tc.env)
			if got := map[bool]string{true: command}[ok]; got != tc.command {
				t.Errorf("Decide(%q, %q) = %q, %v; want %q", tc.args, tc.env, command, ok, tc.command)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	other := filepath.Join(dir, "other")
	for _, d := range []string{bin, other, filepath.Join(other, "claude")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "claude"), 0o700)
	write(filepath.Join(bin, "plain"), 0o600)
	write(filepath.Join(other, "plain"), 0o700)
	// This program as superclaude, installed as claude in front of the
	// real one.
	self := filepath.Join(dir, "self")
	write(self, 0o700)
	front := filepath.Join(dir, "front")
	if err := os.Mkdir(front, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, command, pathList, want string // want "" means not found
	}{
		{"superclaude installed as claude is passed over", "claude", front + ":" + bin, bin + "/claude"},
		{"and only superclaude is not found", "claude", front, ""},
		{"superclaude named by its path is refused", front + "/claude", "", ""},
		{"found", "claude", bin, bin + "/claude"},
		{"a directory of the name is passed over", "claude", other + ":" + bin, bin + "/claude"},
		{"a file without an execute bit is passed over", "plain", bin + ":" + other, other + "/plain"},
		{"the entry is cleaned as os/exec cleans it", "claude", bin + "/", bin + "/claude"},
		{"not found", "nothing", bin, ""},
		{"a relative entry ends the search", "claude", "rel:" + bin, ""},
		{"an empty entry ends the search", "claude", ":" + bin, ""},
		{"an empty PATH", "claude", "", ""},
		{"a path is taken as it is", bin + "/claude", "", bin + "/claude"},
		{"a path that is not executable", bin + "/plain", bin, ""},
		{"a path that is a directory", other + "/claude", "", ""},
		{"no command", "", bin, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := LookPath(tc.command, tc.pathList, self)
			if !ok {
				got = ""
			}
			if got != tc.want {
				t.Errorf("LookPath(%q, %q) = %q, %v; want %q", tc.command, tc.pathList, got, ok, tc.want)
			}
		})
	}
}
