package agentside

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/sessions"
)

// tick is one of Claude Code's recorded status-line payloads.
func tick(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "claude", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A status-line tick with no supervisor to answer is bound here: the line
// says there is no session until one is activated in the pane, then
// shows it, and the session holds what the tick said. Unreadable input
// still gets a line.
func TestStatusLineBindsATickWithoutASupervisor(t *testing.T) {
	root := t.TempDir()
	for k, v := range map[string]string{
		envvar.StateDir: filepath.Join(root, "state"), envvar.SessionsDir: filepath.Join(root, "sessions"),
		envvar.PaneID: "f:w:A", envvar.Supervisor: "", envvar.SupervisorPID: "", envvar.Socket: "",
		envvar.UserStatusLine: "", envvar.LimitContinue: "", "TMUX": "", "NO_COLOR": "1",
	} {
		t.Setenv(k, v)
	}
	if line := StatusLine([]byte("{not json")); !strings.Contains(line, "unreadable") {
		t.Fatalf("unreadable input: %q", line)
	}
	if line := StatusLine(tick(t, "statusline-startup.json")); !strings.Contains(line, "no session") {
		t.Fatalf("no session: %q", line)
	}
	if _, err := os.Stat(filepath.Join(root, "sessions")); !os.IsNotExist(err) {
		t.Fatal("the status line created a sessions directory")
	}
	t.Setenv(envvar.SupervisorPID, strconv.Itoa(os.Getpid()))
	if _, err := sessions.Activate("S1", "implement", true); err != nil {
		t.Fatal(err)
	}
	if line := StatusLine(tick(t, "statusline-after-turn-175k.json")); !strings.HasPrefix(line, "S1 · implement · Opus 5.5 · $0.63 · ctx 18%") {
		t.Fatalf("bound: %q", line)
	}
	sess, err := sessions.Lookup("test", "S1")
	if err != nil || sess.State.SessionID != "092ea89d-33b0-4db4-8242-cd623ef49030" || sess.State.ContextUsage != 0.18 {
		t.Fatalf("the session after the tick: %+v, %v", sess, err)
	}
}
