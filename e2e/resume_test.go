package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// The resume choice (Resume / New / Abort): after the user's own
// /exit, the next `superclaude --resume-policy=ask` in that pane asks —
// showing the session, its last prompt and cost — and answering New gives
// a fresh conversation. Answering Resume, the time after, resumes it.
func TestResumeChoiceAfterTheUsersOwnExit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("choice", "main", "SDK")
	tm.send(pane, "superclaude --resume-policy=ask")
	sup := tm.supervisor(pane)
	first := w.mine(sup.PID, "the first conversation to bind", func(st *state.State) bool { return st.SessionID != "" })
	mark := w.api.Mark()
	tm.typeLine(pane, "remember the blue door")
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "blue door") })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })

	starts := len(w.agentStarts())
	tm.send(pane, "superclaude --resume-policy=ask")
	screen := tm.waitScreen(pane, "[R]esume  [N]ew conversation  [A]bort")
	for _, want := range []string{first.Name, "remember the blue door"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the question does not show %q:\n%s", want, screen)
		}
	}
	if len(w.agentStarts()) != starts {
		t.Fatal("claude started before the question was answered")
	}
	tm.must("send-keys", "-t", pane, "n")
	sup = tm.supervisor(pane)
	w.until("the new agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; slices.Contains(args, "--resume") {
		t.Fatalf("answering New resumed: %q", args)
	}
	second := w.mine(sup.PID, "a new conversation to bind", func(st *state.State) bool {
		return st.SessionID != "" && st.SessionID != first.State.SessionID
	})
	if second.Name != first.Name {
		t.Fatalf("the new conversation runs in session %s, want the pane's %s", second.Name, first.Name)
	}
	mark = w.api.Mark()
	tm.typeLine(pane, "something new")
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "something new") })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })

	// Resume, this time.
	starts = len(w.agentStarts())
	tm.send(pane, "superclaude --resume-policy=ask")
	tm.waitScreen(pane, "[R]esume")
	tm.must("send-keys", "-t", pane, "r")
	sup = tm.supervisor(pane)
	w.until("the resumed agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !slices.Contains(args, second.State.SessionID) {
		t.Fatalf("answering Resume started %q, want --resume %s", args, second.State.SessionID)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// Regression, issue 19: a prompt the person starts typing at the resume
// question is no answer to it. "run: …" chose Resume by its r, and "un: …"
// went to claude as the prompt; now the whole prompt is kept, the question
// waits for its own key (n), and the new claude is given the prompt once it
// is ready.
func TestResumeQuestionKeepsAPromptTypedAtIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("typed", "main", "")
	tm.send(pane, "superclaude --resume-policy=ask")
	sup := tm.supervisor(pane)
	first := w.mine(sup.PID, "the first conversation to bind", func(st *state.State) bool { return st.SessionID != "" })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })

	starts := len(w.agentStarts())
	tm.send(pane, "superclaude --resume-policy=ask")
	tm.waitScreen(pane, "[R]esume  [N]ew conversation  [A]bort")
	const prompt = "run: remember the red door"
	tm.must("send-keys", "-t", pane, "-l", prompt)
	tm.must("send-keys", "-t", pane, "Enter")
	w.until("the question to keep the prompt, or claude to start", func() bool {
		return len(w.agentStarts()) > starts || strings.Contains(tm.capture(pane), "what you type is kept for the agent")
	})
	if len(w.agentStarts()) != starts {
		t.Fatalf("the prompt answered the question: claude started with %q", w.agentStarts()[starts])
	}
	mark := w.api.Mark()
	tm.must("send-keys", "-t", pane, "n")
	sup = tm.supervisor(pane)
	w.until("the new agent", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; slices.Contains(args, "--resume") {
		t.Fatalf("answering New after the prompt resumed: %q", args)
	}
	r, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "red door") })
	if !ok {
		t.Fatalf("the prompt typed at the question never reached claude; screen:\n%s", tm.capture(pane))
	}
	if got := r.LastUserText(); !strings.Contains(got, prompt) {
		t.Errorf("claude was given %q, want %q whole", got, prompt)
	}
	if r.SessionID == first.State.SessionID {
		t.Errorf("the prompt went to the old conversation %s", r.SessionID)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
