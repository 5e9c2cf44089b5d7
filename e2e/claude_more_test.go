package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// A restart does not send the first prompt again: `superclaude "run: echo
// once >> f"` runs the command once, and after a crash the restarted claude
// resumes the conversation without the prompt on its command line — the
// next prompt typed is the next line of f, and the API saw the first
// prompt once.
func TestClaudeRestartDoesNotReplayTheFirstPrompt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("cp", "main", "")
	appended := filepath.Join(w.project, "appended.txt")
	prompt := "run: echo once >> " + appended
	tm.send(pane, "superclaude "+shellQuote(prompt))
	sup := tm.supervisor(pane)
	w.until("the command to run once", func() bool {
		b, _ := os.ReadFile(appended)
		return string(b) == "once\n"
	})
	sess := w.mine(sup.PID, "the conversation bound and its turn over", func(st *state.State) bool {
		return st.SessionID != "" && st.AgentStatus == "idle"
	})
	starts := len(w.agentStarts())
	if err := syscall.Kill(agentPID(t, w).PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w.until("claude to be started again", func() bool { return len(w.agentStarts()) > starts })
	restart := w.agentStarts()[starts]
	if slices.Contains(restart, prompt) {
		t.Errorf("the restart's command line %q holds the first prompt", restart)
	}
	if i := slices.Index(restart, "--resume"); i < 0 || restart[i+1] != sess.State.SessionID {
		t.Errorf("the restart ran claude %q, want --resume %s", restart, sess.State.SessionID)
	}
	// The next prompt's turn: a replayed first prompt would have come
	// before it, and written "once" again.
	tm.typeLine(pane, "run: echo next >> "+appended)
	w.until("the next prompt's command to run", func() bool {
		b, _ := os.ReadFile(appended)
		return strings.HasSuffix(string(b), "next\n")
	})
	if b, _ := os.ReadFile(appended); string(b) != "once\nnext\n" {
		t.Errorf("appended.txt holds %q: the first prompt ran again", b)
	}
	sent := 0
	for _, r := range w.api.Turns() {
		if strings.Contains(r.LastUserText(), prompt) && !fakeapi.HasToolResult(r) {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the first prompt reached the API %d times, want once", sent)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// A SIGTERM someone sends claude ends superclaude with claude's own code,
// 143, and claude is not started again: the user's own exit (S5).
func TestClaudeSIGTERMEndsSuperclaudeWithItsCode(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("term", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the conversation to be bound", func(st *state.State) bool { return st.SessionID != "" })
	if err := proc.Signal(agentPID(t, w), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	w.until("superclaude to end", func() bool { return !proc.Alive(sup) })
	if code, stty := tm.exitAndStty(pane); code != 143 || len(cooked(stty)) != 0 {
		t.Errorf("SIGTERM to claude: superclaude exited %d (want 143), terminal missing %v", code, cooked(stty))
	}
	if n := len(w.agentStarts()); n != 1 {
		t.Errorf("claude was started %d times: a SIGTERM was restarted", n)
	}
}

// A plain claude in another pane is left alone: its tools carry no
// superclaude variable, and when the supervised claude has exited and
// its supervisor swept what it left, the plain one still runs and still
// works.
func TestPlainClaudeInAnotherPaneIsLeftAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	plain := tm.pane("pl", "plain", "")
	tm.send(plain, plainShell+"claude")
	tm.typeLine(plain, "run: env > "+filepath.Join(w.project, "plain.env"))
	supervised := tm.pane("pl", "supervised", "")
	tm.send(supervised, "superclaude")
	sup := tm.supervisor(supervised)
	tm.typeLine(supervised, "run: env > "+filepath.Join(w.project, "supervised.env"))
	w.leftAlone(tm, plain, "claude", sup, func() {
		w.mine(sup.PID, "the supervised claude's turn to end", func(st *state.State) bool { return st.AgentStatus == "idle" })
		tm.typeLine(supervised, "/exit")
	}, func(prompt string) { tm.typeLine(plain, prompt) })
}

// A one-answer run that fails is not run again (issue 16's rule, for the
// claude profile): against an API that refuses every request,
// `superclaude -p` makes the requests plain `claude -p` makes and exits
// with its code, and nothing goes through the supervision tree.
func TestPrintModeThatFailsIsNotRunAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("pf", "main", "")
	w.api.Fallback = func(*fakeapi.Request) fakeapi.Reply {
		return fakeapi.ErrorReply(400, "invalid_request_error", "refused by the test")
	}
	code, n := w.oneAnswerRunsOnce(tm, pane, "claude -p 'say hi'", "superclaude -p 'say hi'", func() int { return len(w.api.Turns()) })
	t.Logf("claude -p against an API that answers 400: exit %d after %d request(s)", code, n)
}
