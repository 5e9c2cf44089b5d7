package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/state"
)

// selfPolicy is the guards' policy for a superclaude that is a file of the
// test's, bin/superclaude, on a PATH of absolute directories; it returns
// the policy and bin.
func selfPolicy(t *testing.T) (Policy, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	os.Mkdir(bin, 0o700)
	self := filepath.Join(bin, "superclaude")
	if err := os.WriteFile(self, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return Policy{Self: self, Path: bin + ":/usr/bin:/bin"}, bin
}

// lookAlike writes an executable file at path, as a repository ships one.
func lookAlike(t *testing.T, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte("#!/bin/sh\nmake build\n"), 0o700); err != nil {
		t.Fatal(err)
	}
}

// Row 9 of issue 21, its second round: the guard judged a command by the
// last element of its program word and ignored what came before it, so
// that past the 76 % threshold, and before a session, a command that only
// looked like superclaude's session bookkeeping passed — `PATH=/tmp
// superclaude +session list`, `cd ~; ./superclaude +session list`, a
// session.sh run with bash, a repository's own script named superclaude.
// Only the
// running binary, by its absolute path or as the bare name found on the
// agent's PATH, is superclaude; a line that changes PATH (or any name) is
// not bookkeeping.
func TestAttackGuardBypassedByALookAlikeSuperclaude(t *testing.T) {
	p, bin := selfPolicy(t)
	repo := t.TempDir()
	evil := filepath.Join(repo, "tools")
	lookAlike(t, filepath.Join(evil, "superclaude"))
	lookAlike(t, filepath.Join(repo, "superclaude"))
	lookAlike(t, filepath.Join(repo, "session.sh"))
	lookAlike(t, filepath.Join(repo, "log.sh"))
	link := filepath.Join(t.TempDir(), "superclaude")
	os.Symlink(p.Self, link)
	os.Symlink(p.Self, filepath.Join(bin, "sc"))
	spaced := filepath.Join(t.TempDir(), "sc dir")
	os.Mkdir(spaced, 0o700)
	os.Link(p.Self, filepath.Join(spaced, "superclaude"))

	dotFirst := p
	dotFirst.Path = ".:" + p.Path
	shadowed := p
	shadowed.Path = evil + ":" + p.Path

	overflowed := &state.State{Lifecycle: state.Active, Overflowed: true, ContextUsage: 0.9}
	for _, tc := range []struct {
		cmd  string
		p    Policy
		pass bool
	}{
		// The spellings that are superclaude.
		{cmd: "superclaude +session list", p: p, pass: true},
		{cmd: p.Self + " +session list", p: p, pass: true},
		{cmd: link + " +session restart", p: p, pass: true},
		{cmd: "sc +log <<'EOF'\nstep\nEOF", p: p, pass: true},
		{cmd: strconv.Quote(filepath.Join(spaced, "superclaude")) + " +session restart", p: p, pass: true},
		{cmd: "cd " + repo + " && superclaude +session show", p: p, pass: true},

		// Look-alikes.
		{cmd: "PATH=" + evil + " superclaude +session list", p: p},
		{cmd: "PATH=" + evil + "; superclaude +session list", p: p},
		{cmd: "export PATH=" + evil + "; superclaude +session list", p: p},
		{cmd: "declare -x PATH=" + evil + "; superclaude +session list", p: p},
		{cmd: "for PATH in " + evil + "; do superclaude +session list; done", p: p},
		{cmd: "printf -v PATH %s " + evil + "; superclaude +session list", p: p},
		{cmd: "echo $((PATH=1)); superclaude +session list", p: p},
		{cmd: ": ${PATH:=" + evil + "}; superclaude +session list", p: p},
		{cmd: "superclaude() { make build; }; superclaude +session list", p: p},
		{cmd: "env PATH=" + evil + " superclaude +session list", p: p},
		{cmd: "command superclaude +session list", p: p},
		{cmd: "exec superclaude +session list", p: p},
		{cmd: "cd " + repo + "; ./superclaude +session list", p: p},
		{cmd: "cd ~; ./superclaude +session list", p: p},
		{cmd: "bash ./session.sh activate sessions/X implement", p: p},
		{cmd: "cd " + repo + " && bash session.sh activate sessions/X implement", p: p},
		{cmd: repo + "/session.sh activate sessions/X implement", p: p},
		{cmd: repo + "/log.sh IMPL.md", p: p},
		{cmd: "bash " + p.Self + " +session list", p: p},
		{cmd: filepath.Join(evil, "superclaude") + " +session list", p: p},
		{cmd: "tools/superclaude +session list", p: p},
		{cmd: "~/superclaude +session list", p: p},
		{cmd: "nosuch +session list", p: p},
		// The agent's PATH reads the repository first.
		{cmd: "cd " + repo + " && superclaude +session list", p: dotFirst},
		{cmd: "superclaude +session list", p: shadowed},
		// No binary to compare with: nothing is superclaude.
		{cmd: "superclaude +session list", p: Policy{Path: p.Path}},
	} {
		in := HookInput{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":` + strconv.Quote(tc.cmd) + `}`)}
		a, _ := PreToolUse(in, overflowed, tc.p)
		if a.Deny == tc.pass {
			t.Errorf("%q past the threshold: deny %v, want %v", tc.cmd, a.Deny, !tc.pass)
		}
		gated := tc.p
		gated.SessionRequired = true
		if gate, _ := PreToolUse(in, nil, gated); gate.Deny == tc.pass {
			t.Errorf("%q before a session: deny %v, want %v", tc.cmd, gate.Deny, !tc.pass)
		}
	}
}

// A look-alike +log does not reset the logging heartbeat either: only
// superclaude's own log command is a log entry.
func TestAttackHeartbeatResetByALookAlikeLog(t *testing.T) {
	p, _ := selfPolicy(t)
	repo := t.TempDir()
	lookAlike(t, filepath.Join(repo, "superclaude"))
	key := "t.jsonl"
	st := &state.State{Lifecycle: state.Active, Skill: "implement", ToolUseWithoutLogsWarnAfter: 3, ToolUseWithoutLogsBlockAfter: 10,
		ToolCallsByTranscript: map[string]int{key: 9}}
	for cmd, reset := range map[string]bool{
		"superclaude +log <<'EOF'\nstep\nEOF":                      true,
		"cd " + repo + " && ./superclaude +log <<'EOF'\nx\nEOF":    false,
		"PATH=" + repo + " superclaude +log <<'EOF'\nx\nEOF":       false,
		"~/.claude/scripts/log.sh IMPL.md":                         false,
		"bash " + filepath.Join(repo, "superclaude") + " +log </x": false,
	} {
		in := HookInput{ToolName: "Bash", TranscriptPath: "/x/" + key,
			ToolInput: json.RawMessage(`{"command":` + strconv.Quote(cmd) + `}`)}
		a, c := PreToolUse(in, st, p)
		want := Change{ResetKey: key}
		if !reset {
			want = Change{CountKey: key} // the tenth call without a log entry
		}
		if c != want || a.Deny == reset || !reset && !strings.Contains(a.Reason, "HEARTBEAT") {
			t.Errorf("%q: answer %+v change %+v, want %+v", cmd, a, c, want)
		}
	}
}
