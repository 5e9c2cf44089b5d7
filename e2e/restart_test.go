package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// A restart from another shell of the same user (`superclaude +session
// restart --session X`, with no supervisor in its environment) reaches the
// session's live owner, which restarts its agent with the continuation
// prompt. With no live owner the command is refused and the state file is
// left byte for byte as it was.
func TestRestartFromAnotherShell(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("restart", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	starts := len(w.agentStarts())
	out, err := w.sc("+session", "restart", "--session", "X")
	if err != nil {
		t.Fatalf("restart from another shell: %v\n%s", err, out)
	}
	w.until("the fresh agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !startsWithPrompt(args, claude.ContinuePrompt("X", "implement", "")) || slices.Contains(args, "--resume") {
		t.Fatalf("the restarted agent's args %q", args)
	}
	w.session("X", "the fresh conversation to be bound", func(st *state.State) bool {
		return st.SessionID != "" && st.SessionID != conv && !st.KillRequested
	})
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })

	path := filepath.Join(w.sessions, "X", state.StateFile)
	before, _ := os.ReadFile(path)
	out, err = w.sc("+session", "restart", "--session", "X")
	if err == nil || !strings.Contains(out, "session X is stopped: no superclaude runs its agent, so nothing was restarted") {
		t.Fatalf("restart without an owner: %v %s", err, out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatalf("the refused restart changed the state:\n%s\n→\n%s", before, after)
	}
}
