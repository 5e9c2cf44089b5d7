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
		l, err := Prepare(filepath.Join(t.TempDir(), "launch"), "/x/superclaude", args, cwd, config, nil)
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
	l, err := Prepare(launch, "/x/superclaude", nil, t.TempDir(), t.TempDir(), nil)
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
// session's own bookkeeping (commandLine.only). Past the threshold only
// superclaude's absolute path counts; the bare name passes the gate.
func TestGuardWordsAreCommandsNotSubstrings(t *testing.T) {
	p, _ := selfPolicy(t)
	for _, tc := range []struct {
		cmd  string
		pass passes
	}{
		{"superclaude +session list", gateOnly},
		{"superclaude +session restart", gateOnly},
		{p.Self + " +session phase Build", both},
		{"superclaude +log <<'EOF'\ndid a thing\nEOF", gateOnly},
		{p.Self + " +log <<'EOF'\ndid a thing\nEOF", both},
		{"printf 'did a thing\\n' | superclaude +log", gateOnly},
		{"printf 'did a thing\\n' | " + p.Self + " +log", both},
		{"cd /work && " + p.Self + " +session show", none},
		{p.Self + " +session list >/dev/null 2>&1", both},
		{"bash ~/.claude/scripts/session.sh activate sessions/X implement", none},
		{"bash -c \"make build\"; superclaude +log", none},
		{"~/.claude/scripts/session.sh activate sessions/X implement", none},
		{"make build; superclaude +session list", none},
		{"echo superclaude +session >/dev/null && make build", none},
		{"superclaude +session list && make build", none},
		{"superclaude +session list || rm -rf build", none},
		{"superclaude +log \"$(make build)\"", none},
		{"superclaude +log `make build`", none},
		{"echo pwned > ~/.bashrc; superclaude +log", none},
		{"superclaude +session list > notes.txt", none},
		{"(make build) | superclaude +log", none},
		{"f() { make build; }; f; superclaude +log", none},
		{"eval 'superclaude +session list'", none},
		{"$SC +session list", none},
		{"superclaude +sessionx list", none},
		{p.Self + " \"+session\" list", both},
		{"superclaude +session 'list", none}, // does not parse
		{"superclaude.evil +session list", none},
	} {
		checkPasses(t, p, tc.cmd, tc.pass)
	}
}

// passes says which guard a line passes as bookkeeping: both (the
// overflow guard past the threshold and the session gate), the gate only
// (superclaude's bare name), or none.
type passes int

const (
	none passes = iota
	gateOnly
	both
)

// checkPasses checks that the Bash line cmd passes the guards pass says.
func checkPasses(t *testing.T, p Policy, cmd string, pass passes) {
	t.Helper()
	in := HookInput{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":` + strconv.Quote(cmd) + `}`)}
	overflowed := &state.State{Lifecycle: state.Active, Overflowed: true, ContextUsage: 0.9}
	if a, _ := PreToolUse(in, overflowed, p); a.Deny != (pass != both) {
		t.Errorf("%q past the threshold: deny %v, want %v", cmd, a.Deny, pass != both)
	}
	gated := p
	gated.SessionRequired = true
	if gate, _ := PreToolUse(in, nil, gated); gate.Deny != (pass == none) {
		t.Errorf("%q before a session: deny %v, want %v", cmd, gate.Deny, pass == none)
	}
}
