package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// prepareWithin runs Prepare and fails the test when it has not returned
// within a few seconds: a FIFO opened for reading waits for a writer for
// ever, and /dev/zero never ends.
func prepareWithin(t *testing.T, args []string, cwd, config string) (Launch, error) {
	t.Helper()
	type result struct {
		l   Launch
		err error
	}
	done := make(chan result, 1)
	go func() {
		l, err := Prepare(filepath.Join(t.TempDir(), "launch"), "/x/superclaude", args, cwd, config)
		done <- result{l, err}
	}()
	select {
	case r := <-done:
		return r.l, r.err
	case <-time.After(3 * time.Second):
		t.Fatal("Prepare still reading the settings after 3 s")
	}
	return Launch{}, nil
}

// Attack 1 of issue 21: a cloned repository hung superclaude before claude
// started (its .claude/settings.json a FIFO) or drove it to 3.3 GB in 3 s
// (a link to /dev/zero), because the status-line setting was read with an
// unbounded os.ReadFile that follows links. The same held for
// ~/.claude/settings.json and --settings. Such a file is refused, as
// plain claude refuses it ("Not a regular file"), and claude starts.
func TestClonedRepoSettingsCannotHangOrExhaustTheStart(t *testing.T) {
	plants := map[string]func(t *testing.T, path string){
		"a FIFO": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"a link to /dev/zero": func(t *testing.T, path string) { os.Symlink("/dev/zero", path) },
		"a link out of the project": func(t *testing.T, path string) {
			out := filepath.Join(t.TempDir(), "elsewhere.json")
			os.WriteFile(out, []byte(`{"statusLine":{"type":"command","command":"planted-line"}}`), 0o600)
			os.Symlink(out, path)
		},
		"a huge file": func(t *testing.T, path string) {
			f, _ := os.Create(path)
			f.Truncate(1 << 30)
			f.Close()
		},
	}
	for what, plant := range plants {
		for _, file := range []string{"settings.json", "settings.local.json"} {
			t.Run(file+" is "+what, func(t *testing.T) {
				cwd, config := t.TempDir(), t.TempDir()
				os.Mkdir(filepath.Join(cwd, ".claude"), 0o755)
				plant(t, filepath.Join(cwd, ".claude", file))
				l, err := prepareWithin(t, nil, cwd, config)
				if err != nil || l.UserStatusLine != "" || len(l.Args) == 0 {
					t.Fatalf("Prepare = %+v, %v; want a launch without the planted status line", l, err)
				}
				if len(l.Skipped) != 1 || !strings.Contains(l.Skipped[0], file) {
					t.Fatalf("the refusal is not said: %q", l.Skipped)
				}
			})
		}
	}
	t.Run("the user's settings is a FIFO", func(t *testing.T) {
		cwd, config := t.TempDir(), t.TempDir()
		syscall.Mkfifo(filepath.Join(config, "settings.json"), 0o600)
		if l, err := prepareWithin(t, nil, cwd, config); err != nil || len(l.Skipped) != 1 {
			t.Fatalf("Prepare = %+v, %v", l, err)
		}
	})
	t.Run("--settings is a link to /dev/zero", func(t *testing.T) {
		cwd := t.TempDir()
		os.Symlink("/dev/zero", filepath.Join(cwd, "s.json"))
		if _, err := prepareWithin(t, []string{"--settings", "s.json"}, cwd, t.TempDir()); err == nil ||
			!strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a link inside the project is followed", func(t *testing.T) {
		cwd, config := t.TempDir(), t.TempDir()
		os.Mkdir(filepath.Join(cwd, ".claude"), 0o755)
		os.WriteFile(filepath.Join(cwd, "shared.json"), []byte(`{"statusLine":{"type":"command","command":"team-line"}}`), 0o600)
		os.Symlink("../shared.json", filepath.Join(cwd, ".claude", "settings.json"))
		if l, err := prepareWithin(t, nil, cwd, config); err != nil || l.UserStatusLine != "team-line" {
			t.Fatalf("Prepare = %+v, %v", l, err)
		}
	})
}

// Attack 8 of issue 21, the launch directory: a runtime directory once
// left open to everyone let a neighbour plant <pid>.launch/settings.json
// as a link, and the settings superclaude writes for claude overwrote the
// file it pointed at. The launch directory is made anew, and its files
// are created, never written through what was there.
func TestPlantedLaunchDirectoryWritesNothingElsewhere(t *testing.T) {
	rt := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("mine\n"), 0o600)
	launch := filepath.Join(rt, "123.launch")
	os.Mkdir(launch, 0o777)
	os.Chmod(launch, 0o777)
	os.Symlink(victim, filepath.Join(launch, "settings.json"))
	victimDir := t.TempDir()
	os.Symlink(victimDir, filepath.Join(launch, "plugin"))
	l, err := Prepare(launch, "/x/superclaude", nil, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine\n" {
		t.Fatalf("the planted link's target was written: %q", b)
	}
	if names, _ := os.ReadDir(victimDir); len(names) != 0 {
		t.Fatalf("the plugin was written into the planted link's directory: %v", names)
	}
	fi, err := os.Lstat(l.SettingsFile)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings file %v, %v", fi, err)
	}
	if fi, err := os.Lstat(launch); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("launch directory %v, %v", fi, err)
	}
}

// Attack 9 of issue 21: the overflow guard and the session gate let a
// Bash command through when a session command appeared anywhere in its
// line — `make build; superclaude +session list` and `echo superclaude
// +session >/dev/null && make build` both passed. The line is parsed as a
// shell parses it, and it passes only when every command in it is the
// session's own bookkeeping (with echo, printf, cd or true around it) and
// nothing in it writes a file.
func TestGuardWordsAreCommandsNotSubstrings(t *testing.T) {
	p, _ := selfPolicy(t)
	overflowed := &state.State{Lifecycle: state.Active, Overflowed: true, ContextUsage: 0.9}
	bash := func(cmd string) HookInput {
		return HookInput{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":` + strconv.Quote(cmd) + `}`)}
	}
	for _, tc := range []struct {
		cmd  string
		pass bool
	}{
		{"superclaude +session list", true},
		{"superclaude +session restart", true},
		{p.Self + " +session phase Build", true},
		{"superclaude +log <<'EOF'\ndid a thing\nEOF", true},
		{"printf 'did a thing\\n' | superclaude +log", true},
		{"cd /work && superclaude +session show", true},
		{"superclaude +session list >/dev/null 2>&1", true},
		{"bash ~/.claude/scripts/session.sh activate sessions/X implement", false},
		{"bash -c \"make build\"; superclaude +log", false},
		{"~/.claude/scripts/session.sh activate sessions/X implement", false},
		{"make build; superclaude +session list", false},
		{"echo superclaude +session >/dev/null && make build", false},
		{"superclaude +session list && make build", false},
		{"superclaude +session list || rm -rf build", false},
		{"superclaude +log \"$(make build)\"", false},
		{"superclaude +log `make build`", false},
		{"echo pwned > ~/.bashrc; superclaude +log", false},
		{"superclaude +session list > notes.txt", false},
		{"(make build) | superclaude +log", false},
		{"f() { make build; }; f; superclaude +log", false},
		{"eval 'superclaude +session list'", false},
		{"$SC +session list", false},
		{"superclaude +sessionx list", false},
		{"superclaude \"+session\" list", true},
		{"superclaude +session 'list", false}, // does not parse
		{"superclaude.evil +session list", false},
	} {
		a, _ := PreToolUse(bash(tc.cmd), overflowed, p)
		if a.Deny == tc.pass {
			t.Errorf("%q past the threshold: deny %v, want %v", tc.cmd, a.Deny, !tc.pass)
		}
		gated := p
		gated.SessionRequired = true
		gate, _ := PreToolUse(bash(tc.cmd), nil, gated)
		if gate.Deny == tc.pass {
			t.Errorf("%q before a session: deny %v, want %v", tc.cmd, gate.Deny, !tc.pass)
		}
	}
}
