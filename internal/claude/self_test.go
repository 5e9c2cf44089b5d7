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

	for _, tc := range []struct {
		cmd  string
		p    Policy
		pass passes
	}{
		// The spellings that are superclaude.
		{cmd: "superclaude +session list", p: p, pass: gateOnly},
		{cmd: p.Self + " +session list", p: p, pass: both},
		{cmd: link + " +session restart", p: p, pass: both},
		{cmd: "sc +log <<'EOF'\nstep\nEOF", p: p, pass: gateOnly},
		{cmd: strconv.Quote(filepath.Join(spaced, "superclaude")) + " +session restart", p: p, pass: both},
		{cmd: "cd " + repo + " && superclaude +session show", p: p}, // cd is no bookkeeping,

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
		checkPasses(t, tc.p, tc.cmd, tc.pass)
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

// Issue 21's second hostile pass fooled the bookkeeping allowance three
// more ways, each through a rule that listed what to refuse: bash execs
// /proc/self/exe as itself (and the hook, statting it, saw superclaude),
// `>& FILE` was no redirection that writes, and `printf \-v PATH` was not
// `printf -v` to a comparison of the text. Bookkeeping is a whitelist now
// (commandLine.only); every bypass found so far is here.
func TestAttackGuardBookkeepingFooledByTheShell(t *testing.T) {
	p, bin := selfPolicy(t)
	self := p.Self
	repo := t.TempDir()
	os.Symlink("/proc/self/exe", filepath.Join(repo, "sc"))
	procBin := filepath.Join(t.TempDir(), "bin")
	os.Mkdir(procBin, 0o700)
	os.Symlink("/proc/self/exe", filepath.Join(procBin, "superclaude"))
	viaProc := p
	viaProc.Path = procBin + ":" + p.Path
	// The hook's own binary: /proc/self/exe is this test, to a stat here.
	running := p
	running.Self, _ = os.Executable()
	runningViaProc := running
	runningViaProc.Path = procBin + ":" + p.Path
	out := filepath.Join(repo, "PWNED")
	hdoc := func(delim, body string) string { return " <<" + delim + "\n" + body + "\nEOF" }
	for _, tc := range []struct {
		cmd  string
		p    Policy
		pass passes
	}{
		// What bookkeeping is.
		{self + " +session list", p, both},
		{`"` + self + `" '+session' "list"`, p, both},
		{self + " +session list >/dev/null", p, both},
		{self + " +session list 2>/dev/null", p, both},
		{self + " +session list 2>&1", p, both},
		{self + " +session phase \"Build the thing\" >/dev/null 2>&1", p, both},
		{self + " +log" + hdoc("'EOF'", "did a thing"), p, both},
		{self + " +log" + hdoc("EOF", "plain text"), p, both},
		{"cat <<'EOF' | " + self + " +log\ndid a thing\nEOF", p, both},
		{"echo did a thing | " + self + " +log", p, both},
		{"printf '%s\\n' 'did a thing' | " + self + " +log", p, both},
		{"echo done | " + self + " +session deactivate", p, both},
		{self + " +session deactivate" + hdoc("'EOF'", "done"), p, both},
		{self + " +session phase x && " + self + " +log" + hdoc("'EOF'", "x"), p, both},
		{self + " +session find || " + self + " +session list; " + self + " +session show", p, both},
		{"superclaude +session activate sessions/X implement", p, gateOnly},

		// Through /proc: the hook and bash read a different file.
		{"/proc/self/exe +session errexit -c \"make build\"", running, none},
		{"/proc/self/exe +session list", running, none},
		{"/proc/" + strconv.Itoa(os.Getpid()) + "/exe +session list", running, none},
		{"/proc/self/../self/exe +session list", running, none},
		{filepath.Join(repo, "sc") + " +session list", running, none},
		{"superclaude +session list", runningViaProc, none},
		{running.Self + " +session list", running, both},
		{"superclaude +session list", viaProc, none},
		{"/dev/fd/3 +session list", p, none},

		// Writes a file.
		{self + " +session show >/dev/null; echo PWNED >& " + out, p, none},
		{self + " +session show >& " + out, p, none},
		{self + " +session show &> " + out, p, none},
		{self + " +session show &>/dev/null", p, none},
		{self + " +session show 2> " + out, p, none},
		{self + " +session show >> /dev/null", p, none},
		{self + " +session show > /dev/null > " + out, p, none},
		{self + " +session show 3>&1", p, none},
		{self + " +session show < /etc/passwd", p, none},

		// Rebinds a name, or is not what it looks like to a comparison.
		{"printf \\-v PATH %s " + bin + "; superclaude +session list", p, none},
		{"printf -v PATH %s " + bin + " | " + self + " +log", p, none},
		{"printf '-v' PATH | " + self + " +log", p, none},
		{self + " +session li\\st", p, none},
		{self + " \\+session list", p, none},
		{self + " $'+session' list", p, none},
		{self + " $\"+session\" list", p, none},
		{self + " \"+ses\\sion\" list", p, none},
		{self + " +session {list,show}", p, none},
		{self + " +session list *", p, none},
		{self + " +session list ~", p, none},
		{"X=1 " + self + " +session list", p, none},

		// Other programs, or echo standing alone.
		{"echo hi; " + self + " +session list", p, none},
		{"true && " + self + " +session list", p, none},
		{": ; " + self + " +session list", p, none},
		{"echo x | " + self + " +session list", p, none},
		{self + " +session list | tee " + out, p, none},
		{self + " +session list | cat", p, none},
		{"cat " + out + " | sh; " + self + " +log", p, none},
		{self + " +session list |& " + self + " +log", p, none},

		// Shapes of the shell that are no bookkeeping.
		{self + " +session list &", p, none},
		{"! " + self + " +session list", p, none},
		{"{ " + self + " +session list; }", p, none},
		{"( " + self + " +session list )", p, none},
		{"time " + self + " +session list", p, none},
		{"coproc " + self + " +session list", p, none},
		{"if " + self + " +session list; then :; fi", p, none},
		{self + " +log" + hdoc("EOF", "$(make build)"), p, none},
		{self + " +log" + hdoc("EOF", "${HOME}"), p, none},
		{self + " +log" + hdoc("EOF", "`make build`"), p, none},
		{self + " +log <<< \"$(make build)\"", p, none},
		{"echo $(make build) | " + self + " +log", p, none},
	} {
		checkPasses(t, tc.p, tc.cmd, tc.pass)
	}
}

// Every superclaude command the plugin's session command tells the agent
// to run is bookkeeping to both guards, in the words it gives them: the
// agent told to dehydrate past the threshold must be able to.
func TestThePluginsCommandsAreBookkeeping(t *testing.T) {
	p, _ := selfPolicy(t)
	md, err := pluginFS.ReadFile("plugin/commands/session.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("{{SUPERCLAUDE}}", shellQuote(p.Self), "{{SESSION_COMMAND}}", SessionCommand).Replace(string(md))
	fill := strings.NewReplacer("<the phase from step 2>", "Build", "NAME", "X", "SKILL", "implement")
	n := 0
	for _, quoted := range strings.Split(text, "`")[1:] {
		if !strings.HasPrefix(quoted, shellQuote(p.Self)+" +") {
			continue
		}
		cmd := fill.Replace(quoted)
		if strings.HasSuffix(cmd, "<<'EOF'") {
			cmd += "\nresumed after a restart\nEOF"
		}
		checkPasses(t, p, cmd, both)
		n++
	}
	if n < 5 {
		t.Fatalf("found %d of the plugin's commands, want its five", n)
	}
}
