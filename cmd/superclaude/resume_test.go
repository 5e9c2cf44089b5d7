package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// Issue 18: `+resume N` of a conversation that overflowed resumed it with
// no warning, at full cost. It now warns and asks; with no terminal to
// ask on it resumes nothing unless --yes says so. (The agent here notes
// its arguments and fails at once, which is all this test needs to tell
// "started" from "refused". A run whose agent fails as it starts leaves
// nothing in the event log, so the agent's own note tells.)
func TestResumeOfAnOverflowedConversationWarnsAndAsks(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	sessions := filepath.Join(proj, "sessions")
	os.MkdirAll(sessions, 0o700)
	store, err := state.Open(sessions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Activate("S", "", state.Caller{}); err != nil {
		t.Fatal(err)
	}
	started := filepath.Join(root, "started")
	agent := filepath.Join(root, "agent")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\necho \"$@\" >> "+started+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	store.Append(state.Event{Time: at, Session: "S", Actor: "supervisor", Kind: "agent-start", Detail: map[string]any{"pane": ""}})
	store.Append(state.Event{Time: at.Add(time.Minute), Session: "S", Actor: "supervisor", Kind: "agent-exit",
		Detail: map[string]any{"conversation": "c0ffee00-0000-4000-8000-000000000001", "cause": "restarted", "overflowed": true}})
	r := runner{t: t, bin: testbin.Superclaude(t), dir: proj, env: []string{
		"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "TMUX=", "SUPERCLAUDE_PANE_ID=",
		"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(root, "state"),
		"SUPERCLAUDE_AGENT=" + agent,
	}}
	_, errOut, code := r.run("y\n", "+resume", "1", "S")
	if code == 0 || !strings.Contains(errOut, "overflowed its context window") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("+resume of an overflowed conversation: exit %d, %q", code, errOut)
	}
	if b, err := os.ReadFile(started); err == nil {
		t.Fatalf("an agent was started without a yes: %s", b)
	}
	_, errOut, _ = r.run("", "+resume", "--yes", "1", "S")
	if strings.Contains(errOut, "not resumed") {
		t.Fatalf("--yes was refused: %q", errOut)
	}
	if b, _ := os.ReadFile(started); !strings.Contains(string(b), "--resume c0ffee00-0000-4000-8000-000000000001") {
		t.Fatalf("--yes did not start the agent on the conversation: %q\n%s", b, errOut)
	}
}
