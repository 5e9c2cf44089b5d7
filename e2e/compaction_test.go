package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Issue 9 (a): blocked compaction recovers. One reply jumps to 985,000 of
// the 1M tokens with no tool call for the 76 % guard to catch. On the next
// prompt claude starts automatic compaction; superclaude's PreCompact hook
// stops it (no compaction request goes out) and marks the session
// overflowed. claude alone would now be stuck ("Context limit reached",
// every prompt after hitting the same wall); the supervisor writes the
// dehydrated context from the transcript itself and restarts claude fresh
// with the continuation prompt, never --resume, within 30 s.
func TestBlockedCompactionRecovers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.unsetEnv("CLAUDE_CODE_DISABLE_1M_CONTEXT")
	tm := w.tmux()
	pane := tm.pane("compact", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	w.model.SetUsage(usage(985_000))
	mark := w.api.Mark()
	tm.typeLine(pane, "read the whole repository")
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "read the whole repository") })
	w.session("X", "the usage of the huge reply", func(st *state.State) bool { return st.ContextUsage >= 0.98 })

	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate X implement", "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	w.model.SetUsage(usage(2_000))
	starts := len(w.agentStarts())
	mark = w.api.Mark()
	tm.typeLine(pane, "and now the next step")

	cont, ok := w.api.WaitAfter(mark, wait, isContinuation)
	if !ok {
		t.Fatalf("no fresh claude continued; screen:\n%s", tm.capture(pane))
	}
	if n := len(w.api.RequestsOf(fakeapi.KindCompact)); n != 0 {
		t.Fatalf("%d compaction requests reached the API", n)
	}
	if cont.SessionID == conv {
		t.Fatal("the continuation ran in the overflowed conversation")
	}
	args := w.agentStarts()[starts]
	if !startsWithPrompt(args, claude.ContinuePrompt("X", "implement", "")) || slices.Contains(args, "--resume") {
		t.Fatalf("the fresh start's args %q", args)
	}
	b, err := os.ReadFile(filepath.Join(w.sessions, "X", state.DehydratedFile))
	if err != nil || !strings.Contains(string(b), "read the whole repository") {
		t.Fatalf("the dehydrated context does not hold the conversation's prompts: %v\n%s", err, b)
	}
	w.session("X", "the fresh agent's activate", func(st *state.State) bool {
		return !st.Overflowed && !st.KillRequested && st.SessionID == cont.SessionID
	})
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
