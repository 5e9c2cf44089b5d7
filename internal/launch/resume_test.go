package launch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
