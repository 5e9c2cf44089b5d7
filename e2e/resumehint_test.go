package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// The resume hint (issue 11): claude's last words after Ctrl-C Ctrl-C are
// "Resume this session with: claude --resume <id>", a command that runs
// claude without superclaude. In a fresh pane, in a session a skill
// activated, the pane shows `superclaude --resume <id>` instead; typed as
// shown, it resumes that conversation, supervised, in the same session.
func TestResumeHintNamesSuperclaude(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("hint", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/blue", "implement")
	conv := w.session("blue", "the conversation to bind", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	// The first Ctrl-C asks "again to exit" once claude is idle at its
	// prompt; one that comes while the activation's turn is still
	// winding down (a loaded machine) only ends that turn. So press it
	// until claude asks, a few times at most, then once more.
	asked := false
	for try := 0; try < 5 && !asked && proc.Alive(sup); try++ {
		tm.must("send-keys", "-t", pane, "C-c")
		deadline := time.Now().Add(5 * time.Second)
		for !asked && time.Now().Before(deadline) && proc.Alive(sup) {
			asked = strings.Contains(tm.capture(pane), "again to exit")
			time.Sleep(100 * time.Millisecond)
		}
	}
	if !asked {
		t.Fatalf("claude never asked for a second Ctrl-C; screen:\n%s", tm.capture(pane))
	}
	tm.must("send-keys", "-t", pane, "C-c")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	screen := tm.waitScreen(pane, "Resume this session with:")
	hint := regexp.MustCompile(`(?m)^(\S*claude) --resume (\S+)\s*$`).FindStringSubmatch(screen)
	if hint == nil || hint[1] != "superclaude" || hint[2] != conv {
		t.Fatalf("the hint is %q, want superclaude --resume %s; screen:\n%s", hint, conv, screen)
	}

	// The user runs the command as shown.
	starts := len(w.agentStarts())
	tm.send(pane, hint[0])
	sup = tm.supervisor(pane)
	w.until("the resumed agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !slices.Contains(args, conv) {
		t.Fatalf("the hint's command started %q, want --resume %s", args, conv)
	}
	mark := w.api.Mark()
	tm.typeLine(pane, "where were we")
	r, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "where were we") })
	if !ok || r.SessionID != conv {
		t.Fatalf("the next turn ran in conversation %q, want %s", r.SessionID, conv)
	}
	if got := w.mine(sup.PID, "the resumed conversation to bind", func(st *state.State) bool { return st.SessionID == conv }); got.Name != "blue" {
		t.Fatalf("the resumed conversation runs in session %s, want blue (the skill's)", got.Name)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
