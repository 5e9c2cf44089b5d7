package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// install is a person's machine as the doctor sees it: a home, this
// superclaude in ~/.local/bin, the real claude in /opt/claude/bin (a
// script that answers --version as Claude Code does), and more directories
// a test may put first on PATH. This superclaude is a file the checks
// compare paths with, never run: how +doctor knows another copy of the
// real program by its +version is cmd/superclaude/apptest's to test.
type install struct {
	t                      *testing.T
	home, local, claudeDir string
	self                   string
}

func newInstall(t *testing.T) *install {
	t.Helper()
	root := t.TempDir()
	in := &install{t: t, home: filepath.Join(root, "home"), claudeDir: filepath.Join(root, "opt", "claude", "bin")}
	in.local = filepath.Join(in.home, ".local", "bin")
	for _, d := range []string{in.local, in.claudeDir} {
		os.MkdirAll(d, 0o755)
	}
	in.self = filepath.Join(in.local, "superclaude")
	in.script(in.self, `echo "superclaude test"`)
	in.script(filepath.Join(in.claudeDir, "claude"), `[ "$1" = --version ] && echo "2.1.330 (Claude Code)"`)
	return in
}

func (in *install) script(path, body string) {
	in.t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		in.t.Fatal(err)
	}
}

func (in *install) env(path ...string) Env {
	return Env{Self: in.self, Version: "superclaude test", PATH: strings.Join(path, ":"), HOME: in.home, SHELL: "/bin/bash",
		StateDir: filepath.Join(in.home, ".local", "state", "superclaude")}
}

// only keeps the findings whose text holds word.
func only(fs []Finding, word string) []Finding {
	var out []Finding
	for _, f := range fs {
		if strings.Contains(f.What, word) {
			out = append(out, f)
		}
	}
	return out
}

func want(t *testing.T, fs []Finding, level Level, what, todo string) {
	t.Helper()
	for _, f := range fs {
		if f.Level == level && strings.Contains(f.What, what) && strings.Contains(f.Todo, todo) {
			return
		}
	}
	t.Errorf("no %s finding saying %q (to do: %q) in:\n%s", level, what, todo, render(fs))
}

func render(fs []Finding) string {
	var b strings.Builder
	Write(&b, fs)
	return b.String()
}

// Issue 19: `command not found` after `make install` on Linux, where
// ~/.local/bin is not on every PATH.
func TestDoctorSaysWhenSuperclaudeIsNotOnPATH(t *testing.T) {
	in := newInstall(t)
	fs := checkSelf(context.Background(), in.env("/usr/bin", in.claudeDir))
	want(t, fs, Fix, "superclaude is not on your PATH: a shell says `command not found`", `export PATH="$HOME/.local/bin:$PATH"`)

	fs = checkSelf(context.Background(), in.env(in.local, "/usr/bin"))
	want(t, fs, OK, "the superclaude your PATH finds first", "")
}

// Issue 19: the SuperClaude framework installs a command named superclaude
// too. (An older copy of this one, which may come first as well, is
// cmd/superclaude/apptest's TestDoctorNamesAnOlderCopyThatShadowsThisOne.)
func TestDoctorNamesAnotherSuperclaudeThatShadowsThisOne(t *testing.T) {
	in := newInstall(t)
	framework := filepath.Join(in.home, ".venv", "bin")
	in.script(filepath.Join(framework, "superclaude"), `echo "SuperClaude v4.1.5"; exit 2`)
	fs := checkSelf(context.Background(), in.env(framework, in.local))
	want(t, fs, Fix, "another program of that name (the SuperClaude framework installs one)", "put this one's directory ahead of ~/.venv/bin")
}

// Issue 19: the claude found behind the link, and a link that comes after
// the real claude on PATH (a plain `claude` then runs unsupervised).
func TestDoctorFindsTheRealClaudeBehindTheLink(t *testing.T) {
	in := newInstall(t)
	link := filepath.Join(in.home, ".superclaude-bin")
	os.MkdirAll(link, 0o755)
	if err := os.Symlink(in.self, filepath.Join(link, "claude")); err != nil {
		t.Fatal(err)
	}

	fs := checkAgent(context.Background(), in.env(link, in.local, in.claudeDir))
	want(t, fs, OK, "2.1.330 (Claude Code) at "+in.claudeDir+"/claude: what superclaude runs as claude", "")
	want(t, fs, OK, "`claude` on your PATH is superclaude (~/.superclaude-bin/claude): every claude you or a script starts is supervised", "")

	fs = checkAgent(context.Background(), in.env(in.local, in.claudeDir, link))
	want(t, fs, Warn, "the link ~/.superclaude-bin/claude comes after the real claude", `export PATH="$HOME/.superclaude-bin:$PATH"`)

	fs = checkAgent(context.Background(), in.env(in.local, "/usr/bin"))
	if len(only(fs, "no claude on your PATH besides superclaude")) != 1 || fs[0].Level != Fix {
		t.Errorf("with no claude:\n%s", render(fs))
	}

	in.script(filepath.Join(in.claudeDir, "claude"), "exit 3")
	fs = checkAgent(context.Background(), in.env(in.local, in.claudeDir))
	want(t, fs, Fix, "does not answer --version", "SUPERCLAUDE_AGENT")
}

func TestDoctorChecksTheCompletionIsThisOnes(t *testing.T) {
	in := newInstall(t)
	dir := filepath.Join(in.home, ".local", "share", "bash-completion", "completions")
	e := in.env(in.local)
	e.Roots = map[string][]string{"bash": {dir}}
	e.Completion = func(shell string) ([]byte, error) { return []byte("# " + shell + " completion v2\n"), nil }

	want(t, checkCompletion(context.Background(), e), Warn, "no bash completion for superclaude's commands where bash looks",
		"superclaude +completion bash > ~/.local/share/bash-completion/completions/superclaude")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "superclaude"), []byte("# bash completion v1\n"), 0o644)
	want(t, checkCompletion(context.Background(), e), Warn, "is not this superclaude's", "superclaude +completion bash >")
	os.WriteFile(filepath.Join(dir, "superclaude"), []byte("# bash completion v2\n"), 0o644)
	want(t, checkCompletion(context.Background(), e), OK, "bash completion at ~/.local/share/bash-completion/completions/superclaude", "")

	e.SHELL = "/usr/bin/tcsh"
	want(t, checkCompletion(context.Background(), e), Note, "no completion for your shell (/usr/bin/tcsh)", "")
}

func TestDoctorChecksItsDirectoriesArePrivateAndWritable(t *testing.T) {
	in := newInstall(t)
	e := in.env(in.local)
	runtime := filepath.Join(in.home, "run")
	e.RuntimeDir = func() (string, error) { return runtime, os.MkdirAll(runtime, 0o700) }
	fs := checkDirs(context.Background(), e)
	want(t, fs, OK, "state directory (log, index, your own sessions) ~/.local/state/superclaude: yours, private, writable", "")
	want(t, fs, OK, "runtime directory (control sockets) ~/run: yours, private, writable", "")
	if left, _ := os.ReadDir(e.StateDir); len(left) != 0 {
		t.Errorf("the probe left %v", left)
	}

	os.Chmod(e.StateDir, 0o755)
	want(t, checkDirs(context.Background(), e), Warn, "is open to others (mode 0755)", "chmod 700 ~/.local/state/superclaude")

	if os.Getuid() != 0 { // root writes anywhere
		os.Chmod(e.StateDir, 0o500)
		defer os.Chmod(e.StateDir, 0o700)
		want(t, checkDirs(context.Background(), e), Fix, "is not writable", "chmod u+rwx")
	}
}

func TestWriteCountsWhatToFix(t *testing.T) {
	var b strings.Builder
	n := Write(&b, []Finding{{OK, "fine", ""}, {Fix, "broken", "do this\nthen that"}, {Warn, "meh", ""}})
	out := b.String()
	if n != 1 || !strings.Contains(out, "FIX   broken\n      do this\n      then that\n") || !strings.Contains(out, "1 thing to fix (FIX above), 1 to consider") {
		t.Errorf("Write = %d:\n%s", n, out)
	}
	b.Reset()
	if Write(&b, []Finding{{OK, "fine", ""}}) != 0 || !strings.Contains(b.String(), "all is well") {
		t.Errorf("all well:\n%s", b.String())
	}
}
