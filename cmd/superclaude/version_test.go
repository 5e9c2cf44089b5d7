package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Regression (issue 11): `go install …/cmd/superclaude@latest` builds
// reported version "dev". A build the linker gave no version reports what
// the toolchain recorded: here, built from the checkout with VCS stamping,
// the revision.
func TestVersionComesFromTheBuildInfo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the build has no revision to record")
	}
	bin := filepath.Join(t.TempDir(), "superclaude")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if info, _ := exec.Command("go", "version", "-m", bin).Output(); !strings.Contains(string(info), "vcs.revision=") {
		// Go stamps only a checkout whose .git is a directory; a git
		// worktree's is a file.
		t.Skip("the build carries no VCS stamp here (a git worktree?): nothing to report")
	}
	out, err := exec.Command(bin, "+version").Output()
	if err != nil {
		t.Fatal(err)
	}
	rev, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("no git revision here: %v", err)
	}
	// Go stamps a pseudo-version (v0.0.0-<time>-<rev>[+dirty]), and the
	// revision and its time.
	want := `^superclaude \S+, commit ` + strings.TrimSpace(string(rev)) + ` of \d{4}-\d\d-\d\dT\S+Z(, with local changes)?, go1\S* \w+/\w+\n$`
	if !regexp.MustCompile(want).Match(out) {
		t.Fatalf("+version = %q, want it to match %s", out, want)
	}
}

// +completion writes a script for each shell, and the script's callback
// into superclaude completes its own commands; a mistyped command, +session
// subcommand or +help topic is refused with a suggestion, and a missing
// argument with the command's usage.
func TestCompletionAndTypos(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "superclaude")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for shell, want := range map[string]string{"bash": "bash completion V2 for superclaude", "zsh": "#compdef superclaude", "fish": "complete -c superclaude"} {
		out, err := exec.Command(bin, "+completion", shell).Output()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("+completion %s: %v %.80q", shell, err, out)
		}
	}
	out, err := exec.Command(bin, "__complete", "+se").Output()
	if err != nil || !strings.Contains(string(out), "+session") {
		t.Fatalf("completing +se: %v %q", err, out)
	}
	// A mistyped command is refused with a suggestion and never run as a
	// prompt (the agent here would fail loudly if started).
	cmd := exec.Command(bin, "+stauts")
	cmd.Env = append(os.Environ(), "SUPERCLAUDE_AGENT=/nonexistent/claude")
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(msg), "did you mean +status?") {
		t.Fatalf("+stauts: %v %q", err, msg)
	}
	// Regression: a mistyped +session subcommand and a mistyped +help
	// topic printed a help and exited 0; +help without the + printed the
	// general help.
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"+session", "lsit"}, 2, "lsit is not a +session command; did you mean list?"},
		{[]string{"+help", "stauts"}, 2, "there is no help topic stauts; did you mean status?"},
		{[]string{"+help", "session", "actvate"}, 2, "did you mean activate?"},
		{[]string{"+help", "status"}, 0, "every sessions directory"},
		{[]string{"+help", "session", "list"}, 0, "list the sessions"},
		// A missing argument names the usage, not only cobra's count.
		{[]string{"+up"}, 2, "usage: superclaude +up <fleet.toml>"},
		{[]string{"+session", "activate"}, 2, "usage: superclaude +session activate <dir> [skill]"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = append(os.Environ(), "SUPERCLAUDE_AGENT=/nonexistent/claude")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("superclaude %q: exit %d %q; want %d and %q", tc.args, code, out, tc.code, tc.want)
		}
	}
}
