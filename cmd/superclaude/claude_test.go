package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/testbin"
)

func sampleText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "internal", "claude", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Claude runs these commands itself: whatever they are fed, the status line
// prints a line and exits 0, and a hook never breaks claude's turn.
func TestClaudeFacingCommandsAsAProgram(t *testing.T) {
	dir := t.TempDir()
	r := runner{t: t, bin: testbin.Superclaude(t), dir: dir, env: []string{
		"SUPERCLAUDE_SESSIONS_DIR=" + filepath.Join(dir, "sessions"),
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"),
		"SUPERCLAUDE_PANE_ID=fleet:w:A", "CLAUDE_SUPERVISOR_PID=", "SUPERCLAUDE_SUPERVISOR=", "SUPERCLAUDE_SOCKET=",
		"TMUX=", "NO_COLOR=1", "SUPERCLAUDE_USER_STATUSLINE=",
	}}

	for _, bad := range []string{"", "{not json", "\x00\x01"} {
		out, errOut, code := r.run(bad, "+statusline")
		if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "unreadable") {
			t.Fatalf("status line on %q: %d %q %q", bad, code, out, errOut)
		}
		if out, _, code := r.run(bad, "+hook", "pre-tool-use"); code != 0 || out != "" {
			t.Fatalf("hook on %q: %d %q", bad, code, out)
		}
	}
	// No session yet: a line that says so.
	if out, _, code := r.run(sampleText(t, "statusline-startup.json"), "+statusline"); code != 0 || !strings.Contains(out, "no session") {
		t.Fatalf("no session: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "sessions")); !os.IsNotExist(err) {
		t.Fatal("the status line created a sessions directory")
	}

	// A session in this pane: the status line binds it.
	if _, errOut, code := r.run("", "+session", "activate", "S1", "implement"); code != 0 {
		t.Fatalf("activate: %s", errOut)
	}
	out, _, _ := r.run(sampleText(t, "statusline-after-turn-175k.json"), "+statusline")
	if !strings.HasPrefix(out, "S1 · implement · Opus 5.5 · $0.63 · ctx 18%") {
		t.Fatalf("status line %q", out)
	}
	show, _, _ := r.run("", "+session", "show", "--json")
	if !strings.Contains(show, `"sessionId": "092ea89d-33b0-4db4-8242-cd623ef49030"`) || !strings.Contains(show, `"contextUsage": 0.18`) {
		t.Fatalf("not bound: %s", show)
	}

	// The user's own status line is shown beside ours.
	r.env = append(r.env, `SUPERCLAUDE_USER_STATUSLINE=printf 'mine: %s\n' "$(wc -c | tr -d ' ')"`)
	out, _, _ = r.run(sampleText(t, "statusline-startup.json"), "+statusline")
	if !strings.Contains(out, " │ mine: ") {
		t.Fatalf("user status line missing: %q", out)
	}

	// Past the threshold the hook denies in Claude's protocol.
	setAll(t, dir, func(st *state.State) { st.ContextUsage = 0.9 })
	out, _, code := r.run(sampleText(t, "hook-PreToolUse.json"), "+hook", "pre-tool-use")
	var answer struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &answer) != nil || answer.H.Decision != "deny" || !strings.Contains(answer.H.Reason, "Context window full") {
		t.Fatalf("overflow hook: %d %q", code, out)
	}
	show, _, _ = r.run("", "+session", "show", "--json")
	if !strings.Contains(show, `"overflowed": true`) {
		t.Fatalf("overflowed not recorded: %s", show)
	}
	// Automatic compaction is stopped (exit 2) only when the restart the
	// stop relies on can happen: here no supervisor runs to do it, so the
	// compaction goes on and the person is told (issue 21, attack 6).
	if out, errOut, code := r.run(sampleText(t, "hook-PreCompact-auto.json"), "+hook", "pre-compact"); code != 0 || !strings.Contains(out, "systemMessage") {
		t.Fatalf("pre-compact without a supervisor: %d %q %q", code, out, errOut)
	}
	// +log appends to the skill's log in the session directory.
	if out, errOut, code := r.run("did step one\n", "+log"); code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "IMPLEMENT_LOG.md") {
		t.Fatalf("+log: %d %q %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sessions", "S1", "IMPLEMENT_LOG.md")); !strings.Contains(string(b), "did step one") {
		t.Fatalf("log file: %q", b)
	}
}
