package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
	"github.com/superclaude/superclaude/testkit/fakeopenai"
)

// historyRow is the +history row of conversation id on screen, as its
// fields: the last line that names id, as what the agent printed as it
// ended (gemini's box names its session) is still in the scrollback above.
// It fails the test when there is none.
func historyRow(t *testing.T, screen, id string) string {
	t.Helper()
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], id) {
			return strings.Join(strings.Fields(lines[i]), " ")
		}
	}
	t.Fatalf("+history lists no conversation %s:\n%s", id, screen)
	return ""
}

// checkHistory runs +history in pane and checks the row of conversation
// id of agent's: its name, the person's own exit, no cost, and the first
// and last prompts ("first AGENT prompt", "last AGENT prompt").
func checkHistory(t *testing.T, tm *tmuxServer, pane, agent, id string) {
	t.Helper()
	tm.send(pane, "clear; superclaude +history")
	row := historyRow(t, tm.waitScreen(pane, "last "+agent+" prompt"), id)
	for _, want := range []string{" " + agent + " ", "you exited –", "first " + agent + " prompt", "last " + agent + " prompt"} {
		if !strings.Contains(row, want) {
			t.Errorf("+history's row does not show %q: %s", want, row)
		}
	}
}

// startedWith types command in pane and checks that it starts the agent
// with args; it returns the new supervisor.
func startedWith(t *testing.T, w *world, tm *tmuxServer, pane, command string, args ...string) proc.Identity {
	t.Helper()
	n := len(w.agentStarts())
	tm.send(pane, "clear; "+command)
	sup := tm.supervisor(pane)
	w.until("the agent to be started by "+command, func() bool { return len(w.agentStarts()) > n })
	if got := w.agentStarts()[n]; !slices.Equal(got, args) {
		t.Fatalf("%s started the agent with %q, want %q", command, got, args)
	}
	return sup
}

// Regression, issue 19, with the real Codex CLI: +history showed a Codex
// conversation with no agent and "-" for its prompts, and +resume N ran
// `claude --resume <codex id>` ("No conversation found", exit 1). It now
// names codex, shows the prompts from Codex's rollout and no cost (Codex
// reports none), and +resume N resumes it with codex: the next turn
// carries the earlier ones. Its exit hint names the supervised command.
func TestCodexHistoryAndResumeN(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("ch", "main", "")
	sup := w.codexStart(tm, pane)
	w.openai.Push(fakeopenai.Text("pong-one"))
	first := w.turn(tm, pane, "first codex prompt")
	tm.waitScreen(pane, "pong-one")
	w.openai.Push(fakeopenai.Text("pong-two"))
	w.turn(tm, pane, "last codex prompt")
	tm.waitScreen(pane, "pong-two")
	id := first.ThreadID
	w.mine(sup.PID, "codex's conversation and its rollout to bind", func(st *state.State) bool {
		return st.SessionID == id && st.TranscriptPath != ""
	})
	tm.typeCodex(pane, "/quit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	// Codex's exit hint names the supervised command, not `codex resume`.
	screen := tm.waitScreen(pane, "superclaude +run --profile codex -- resume "+id)
	if strings.Contains(screen, "codex resume "+id) {
		t.Errorf("the exit hint still names codex resume:\n%s", screen)
	}

	checkHistory(t, tm, pane, "codex", id)
	sup = startedWith(t, w.world, tm, pane, "superclaude +resume 1", "--no-daemon", "resume", id)
	tm.codexReady(pane)
	w.openai.Push(fakeopenai.Text("pong-three"))
	again := w.turn(tm, pane, "and now")
	if again.ThreadID != id || !slices.Contains(again.UserTexts(), "first codex prompt") {
		t.Errorf("the resumed turn ran thread %s with %q, want %s with the earlier turns", again.ThreadID, again.UserTexts(), id)
	}
	tm.typeCodex(pane, "/quit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// Regression, issue 19, with the real Gemini CLI: its exit hint, drawn
// in a colour gradient, still named `gemini --resume <id>` (run without
// superclaude) while claude's and codex's named superclaude. It names the
// supervised command, its box's border where it was, and typed as shown it
// resumes the conversation supervised. +history names gemini, shows the
// prompts from its chat file and no cost, and +resume N resumes it with
// gemini.
func TestGeminiExitHintHistoryAndResumeN(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gh", "main", "")
	sup := w.geminiStart(tm, pane)
	w.gemini.Push(fakegemini.Text("pong-one"))
	w.turn(tm, pane, "first gemini prompt")
	tm.waitScreen(pane, "pong-one")
	w.gemini.Push(fakegemini.Text("pong-two"))
	w.turn(tm, pane, "last gemini prompt")
	tm.waitScreen(pane, "pong-two")
	sess := w.mine(sup.PID, "gemini's conversation and its chat file to bind", func(st *state.State) bool {
		return st.SessionID != "" && st.TranscriptPath != ""
	})
	id := sess.State.SessionID
	w.quit(tm, pane, sup)

	screen := tm.waitScreen(pane, "To resume this session:")
	hint := regexp.MustCompile(`To resume this session: (.*?) (\S+)\s*│`).FindStringSubmatch(screen)
	if hint == nil || hint[1] != "superclaude +run --profile gemini -- --resume" || hint[2] != id {
		t.Fatalf("the hint is %q, want superclaude +run --profile gemini -- --resume %s in the box; screen:\n%s", hint, id, screen)
	}

	checkHistory(t, tm, pane, "gemini", id)

	// The hint, typed as shown.
	sup = startedWith(t, w.world, tm, pane, hint[1]+" "+hint[2], "--resume", id)
	tm.waitScreen(pane, "Type your message")
	w.quit(tm, pane, sup)

	sup = startedWith(t, w.world, tm, pane, "superclaude +resume 1", "--resume", id)
	tm.waitScreen(pane, "Type your message")
	w.gemini.Push(fakegemini.Text("pong-three"))
	again := w.turn(tm, pane, "and now")
	if !slices.Contains(again.UserTexts(), "first gemini prompt") {
		t.Errorf("the resumed conversation lacks the earlier turns: %q", again.UserTexts())
	}
	w.quit(tm, pane, sup)
}
