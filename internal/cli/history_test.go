package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

func TestHistoryGroupsRunsByConversation(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	ev := func(m int, kind, sess string, detail map[string]any) state.Event {
		return state.Event{Time: at(m), Kind: kind, Session: sess, Detail: detail}
	}
	evs := []state.Event{
		ev(0, "agent-start", "S", map[string]any{"pane": "f:w:A"}),
		ev(5, "agent-exit", "S", map[string]any{"conversation": "c1", "cause": "crash", "costUSD": 0.5, "pane": "f:w:A"}),
		ev(6, "agent-start", "S", map[string]any{"pane": "f:w:A", "conversation": "c1"}),
		ev(9, "agent-exit", "S", map[string]any{"conversation": "c1", "cause": "restarted", "costUSD": 0.9, "transcript": "/t/c1.jsonl", "pane": "f:w:A"}),
		ev(10, "agent-start", "S", map[string]any{"pane": "f:w:A"}),
		ev(11, "agent-start", "T", map[string]any{"pane": "f:w:B"}),
		ev(12, "agent-exit", "T", map[string]any{"conversation": "t1", "cause": "user-exit", "pane": "f:w:B", "profile": "codex", "command": "/bin/codex"}),
		ev(20, "agent-exit", "S", map[string]any{"conversation": "c2", "cause": "user-exit", "costUSD": 0.1, "pane": "f:w:A"}),
		ev(21, "agent-start", "S", map[string]any{"pane": "f:w:A"}),
		ev(22, "agent-exit", "S", map[string]any{"cause": "crash", "pane": "f:w:A"}), // no conversation bound: not listed
	}
	got := History(evs, func(sess, pane string) bool { return pane == "f:w:A" })
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	c1, c2 := got[0], got[1]
	if c1.N != 1 || c1.ID != "c1" || c1.Runs != 2 || !c1.Start.Equal(at(0)) || !c1.End.Equal(at(9)) ||
		c1.Why != "restarted" || c1.CostUSD != 0.9 || c1.Transcript != "/t/c1.jsonl" {
		t.Errorf("c1 %+v", c1)
	}
	if c2.N != 2 || c2.ID != "c2" || c2.Runs != 1 || !c2.Start.Equal(at(10)) || c2.Why != "user-exit" {
		t.Errorf("c2 %+v", c2)
	}
	if all := History(evs, func(string, string) bool { return true }); len(all) != 3 || all[1].ID != "c2" || all[2].ID != "t1" {
		t.Errorf("all: %+v", all)
	} else if all[0].Agent != "claude" || all[0].Command != "" || all[2].Agent != "codex" || all[2].Command != "/bin/codex" {
		// A conversation logged before the profile was recorded was
		// claude's.
		t.Errorf("agents: %q %q, %q %q", all[0].Agent, all[0].Command, all[2].Agent, all[2].Command)
	}
}

// Issue 19: +history's WHY column showed supervise's cause codes
// ("user-exit"), which +help codes does not explain; it says them in
// words, and --json keeps the code.
func TestHistorySaysWhyInWords(t *testing.T) {
	var b strings.Builder
	cs := []Conversation{{N: 1, ID: "c1", Session: "S", Why: "user-exit"}, {N: 2, ID: "c2", Session: "S", Why: "crash"}}
	if err := WriteHistory(&b, cs); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "user-exit") || !strings.Contains(out, "you exited") || !strings.Contains(out, "crashed") {
		t.Errorf("+history:\n%s", out)
	}
}
