package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/state"
)

// Issue 18: `+resume N` of a conversation that overflowed resumed it with
// no warning, at full cost. It warns, asks, and without a yes starts
// nothing; a number past the last conversation is said.
func TestResumeOfAnOverflowedConversationAsksFirst(t *testing.T) {
	root := t.TempDir()
	sessions := filepath.Join(root, "sessions")
	for k, v := range map[string]string{
		envvar.StateDir: filepath.Join(root, "state"), envvar.SessionsDir: sessions, envvar.PaneID: "",
		envvar.Supervisor: "", envvar.SupervisorPID: strconv.Itoa(os.Getpid()), "TMUX": "",
		// Were anything started, it would fail at once.
		envvar.Agent: "false",
	} {
		t.Setenv(k, v)
	}
	store, err := state.Open(sessions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Activate("S", "", state.Caller{}); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	store.Append(state.Event{Time: at, Session: "S", Actor: "supervisor", Kind: "agent-start", Detail: map[string]any{"pane": ""}})
	store.Append(state.Event{Time: at.Add(time.Minute), Session: "S", Actor: "supervisor", Kind: "agent-exit",
		Detail: map[string]any{"conversation": "c0ffee00-0000-4000-8000-000000000001", "cause": "restarted", "overflowed": true}})

	var stderr strings.Builder
	_, err = Resume(1, "S", false, strings.NewReader("n\n"), &stderr)
	if err == nil || !strings.Contains(err.Error(), "not resumed") || !strings.Contains(stderr.String(), "overflowed its context window") {
		t.Fatalf("answered no: %v; said %q", err, stderr.String())
	}
	if _, err := Resume(2, "S", true, strings.NewReader(""), &stderr); err == nil || !strings.Contains(err.Error(), "there is no 2") {
		t.Fatalf("+resume 2 of one conversation: %v", err)
	}
	if evs, _ := store.Events("S"); len(evs) != 3 { // the activation and the two above
		t.Fatalf("something was started: %d events", len(evs))
	}
}

// Regression, issue 19: `+resume N` of a Codex or Gemini conversation ran
// `claude … --resume <codex id>`, which found no such conversation. It is
// resumed by the agent that had it: its profile's resume arguments and
// the command it ran, else the profile's on PATH; with neither, nothing
// starts and the error names the missing agent.
func TestResumeRunsTheAgentThatHadTheConversation(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	os.MkdirAll(bin, 0o700)
	for _, name := range []string{"codex", "gemini"} {
		os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\nexit 0\n"), 0o755)
	}
	gone := filepath.Join(root, "gone", "codex")
	for k, v := range map[string]string{
		envvar.StateDir: filepath.Join(root, "state"), envvar.SessionsDir: filepath.Join(root, "sessions"), envvar.PaneID: "",
		envvar.Supervisor: "", envvar.SupervisorPID: strconv.Itoa(os.Getpid()), "TMUX": "", "PATH": bin,
		// claude's, from the environment: not the command of a codex run.
		envvar.Agent: "/usr/local/bin/my-claude", envvar.Profile: "",
	} {
		t.Setenv(k, v)
	}
	const id = "01a2340b-bb0c-76c3-9f3d-7ae75196faad"
	for _, tc := range []struct {
		name string
		c    cli.Conversation
		want []string // profile, command, args…
	}{
		{"codex, its command there", cli.Conversation{ID: id, Agent: "codex", Command: filepath.Join(bin, "codex")},
			[]string{"codex", filepath.Join(bin, "codex"), "--no-daemon", "resume", id}},
		{"codex, its command gone", cli.Conversation{ID: id, Agent: "codex", Command: gone},
			[]string{"codex", "codex", "--no-daemon", "resume", id}},
		{"gemini", cli.Conversation{ID: id, Agent: "gemini", Command: filepath.Join(bin, "gemini")},
			[]string{"gemini", filepath.Join(bin, "gemini"), "--resume", id}},
	} {
		o, args, err := resumeOptions(tc.c)
		if got := append([]string{o.Profile, o.Agent}, args...); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	os.Remove(filepath.Join(bin, "codex"))
	_, _, err := resumeOptions(cli.Conversation{ID: id, Agent: "codex", Command: gone})
	if err == nil || !strings.Contains(err.Error(), "was codex's, and codex is not found here (looked for "+gone+" or codex)") {
		t.Errorf("codex missing: %v", err)
	}
	if _, _, err := resumeOptions(cli.Conversation{ID: id, Agent: "someone"}); err == nil || !strings.Contains(err.Error(), "no someone profile") {
		t.Errorf("an unknown profile: %v", err)
	}
}
