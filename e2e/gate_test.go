package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// toolResult types a "run:" prompt and returns the result the CLI sent back
// for that tool call.
func toolResult(t *testing.T, w *world, tm *tmuxServer, pane, cmd string) fakeapi.ToolResult {
	t.Helper()
	mark := w.api.Mark()
	tm.typeLine(pane, "run: "+cmd)
	r, ok := w.api.WaitAfter(mark, wait, fakeapi.HasToolResult)
	if !ok {
		t.Fatalf("no tool result for %q", cmd)
	}
	tr, _ := r.LastToolResult()
	return tr
}

// injected types a prompt and returns what the request that carried it
// added after the model's last answer: the prompt and what the hooks
// injected with it (UserPromptSubmit's additional context travels in a
// system message; docs/design.md#what-we-rely-on-from-the-agent-clis).
func injected(t *testing.T, w *world, tm *tmuxServer, pane, prompt string) string {
	t.Helper()
	mark := w.api.Mark()
	tm.typeLine(pane, prompt)
	r, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && strings.Contains(r.LastUserText(), prompt)
	})
	if !ok {
		t.Fatalf("the prompt %q never reached the API", prompt)
	}
	msgs := r.Messages()
	last := 0
	for i, m := range msgs {
		if m["role"] == "assistant" {
			last = i + 1
		}
	}
	b, _ := json.Marshal(msgs[last:])
	return string(b)
}

// S10 and S11 with SESSION_REQUIRED=1: the supervisor's own session does
// not open the gate; the boot instructions are injected and tools are
// blocked until a skill activates a session; after deactivate the gate
// closes again and the injection names the completed session and skill.
func TestS10S11SessionGate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.setEnv("SESSION_REQUIRED=1")
	tm := w.tmux()
	pane := tm.pane("gate", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" && st.Auto })

	// S10: no skill has activated a session.
	if body := injected(t, w, tm, pane, "hello"); !strings.Contains(body, "no session is active") {
		t.Fatal("UserPromptSubmit injected no boot instructions before a skill activated a session")
	}
	if tr := toolResult(t, w, tm, pane, "echo gated"); !tr.IsError || !strings.Contains(tr.Text, "SESSION REQUIRED") {
		t.Fatalf("a tool ran through the closed gate: %+v", tr)
	}
	// Session bookkeeping passes the gate; the activation opens it.
	if tr := toolResult(t, w, tm, pane, "superclaude +session activate sessions/X implement"); tr.IsError {
		t.Fatalf("activate was blocked: %+v", tr)
	}
	if tr := toolResult(t, w, tm, pane, "echo open-now"); tr.IsError || !strings.Contains(tr.Text, "open-now") {
		t.Fatalf("the gate stayed closed after activate: %+v", tr)
	}
	if body := injected(t, w, tm, pane, "still there"); strings.Contains(body, "no session is active") {
		t.Fatal("boot instructions injected with an active session")
	}

	// S11: deactivate closes the gate again.
	if tr := toolResult(t, w, tm, pane, "superclaude +session deactivate"); tr.IsError {
		t.Fatalf("deactivate was blocked: %+v", tr)
	}
	w.session("X", "completed", func(st *state.State) bool { return st.Lifecycle == state.Completed })
	if body := injected(t, w, tm, pane, "what now"); !strings.Contains(body, "X (skill implement) is completed") {
		t.Fatal("the injection after deactivate does not name the completed session and skill")
	}
	if tr := toolResult(t, w, tm, pane, "echo gated again"); !tr.IsError || !strings.Contains(tr.Text, "is completed") {
		t.Fatalf("a tool ran after deactivate: %+v", tr)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
