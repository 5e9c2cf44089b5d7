package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// The person's own prompt asks for the restart: "run: superclaude
// +session restart", which the fake model obeys with its Bash tool, as a
// model told "restart yourself" would. That prompt's turn was under way
// and asked for the restart itself, so the fresh claude must not be told
// the prompt "was not answered" — it was, by the restart — nor be handed
// it as an instruction to carry out again, which restarts it again, and
// again: a loop the restart-rate breaker would only cut after ten
// restarts. Exactly one restart follows, and the fresh claude's first
// request says what happened: the turn asked for this restart, which is
// done, and the person's words come quoted.
func TestPromptThatAsksForARestartRestartsOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("once", "main", "A")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID
	starts := len(w.agentStarts())

	const typed = "run: superclaude +session restart"
	mark := w.api.Mark()
	tm.typeLine(pane, typed)
	cont, ok := w.api.WaitAfter(mark, wait, isContinuation)
	if !ok {
		t.Fatalf("no fresh claude continued; screen:\n%s", tm.capture(pane))
	}
	if cont.SessionID == conv {
		t.Fatal("the continuation ran in the old conversation")
	}
	first := firstTurnOf(w, cont.SessionID)
	text := strings.Join(first.UserTexts(), "\n")
	if !strings.Contains(text, state.CarriedIntro) || !strings.Contains(text, "> "+typed) {
		t.Fatalf("the fresh claude's first request does not quote the prompt that asked for the restart:\n%s", text)
	}
	if !strings.Contains(text, "asked superclaude for this restart") || strings.Contains(text, "<<<\n"+typed+"\n>>>") {
		t.Fatalf("the fresh claude is told to carry out the prompt that asked for the restart again:\n%s", text)
	}

	// The fresh claude's turn ends (the fake model answers "ok"); a
	// second restart, had one been asked for, comes within seconds.
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return r.SessionID == cont.SessionID && r.Kind == fakeapi.KindTurn })
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if n := len(w.agentStarts()) - starts; n > 1 {
			t.Fatalf("%d restarts after the person's one prompt asked for a restart; want 1", n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n := len(w.agentStarts()) - starts; n != 1 {
		t.Fatalf("%d restarts; want 1", n)
	}
	w.session("X", "the prompt answered by the fresh claude's turn", func(st *state.State) bool { return len(st.PendingPrompts) == 0 })
	if st, _ := w.store().Load("X"); st.Halted != "" {
		t.Fatalf("the session halted: %s", st.Halted)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
