package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Limits: the fake API answers a subscriber's usage limit whose reset lies
// a few seconds ahead, as the real API does (docs/claude-code-limits.md;
// claude reads the usage headers only for a subscriber or a gateway, hence
// the gateway token). superclaude counts no crash, shows the limit in
// +status and on the status line, and once the limit resets continues the
// conversation without a person: the lost prompt goes out again.
func TestUsageLimitContinuesAfterTheReset(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.unsetEnv("ANTHROPIC_API_KEY")
	w.setEnv("ANTHROPIC_AUTH_TOKEN=" + fakeapi.GatewayToken)
	tm := w.tmux()
	pane := tm.pane("limit", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID
	starts := len(w.agentStarts())

	reset := time.Now().Add(12 * time.Second).Truncate(time.Second)
	w.api.SetGate(fakeapi.LimitedUntil(reset, fakeapi.UsageLimited))
	mark := w.api.Mark()
	tm.typeLine(pane, "build the parser")
	// The StopFailure hook records it from claude's message, to the end of
	// its minute; the next status-line tick, from rate_limits, exactly.
	x := w.session("X", "the exact reset recorded", func(st *state.State) bool { return st.LimitedUntil.Equal(reset) })
	if x.Limit != "5-hour usage limit" {
		t.Fatalf("the limit recorded: %q until %v", x.Limit, x.LimitedUntil)
	}
	out, err := w.sc("+status", "--json", "--sessions", filepath.Join(w.sessions))
	var views []cli.SessionView
	if err != nil || json.Unmarshal([]byte(out), &views) != nil {
		t.Fatalf("+status: %v %s", err, out)
	}
	for _, v := range views {
		if v.Name == "X" && (v.Limit != "5-hour usage limit" || v.LimitedUntil == "") {
			t.Fatalf("+status does not show the limit: %+v", v)
		}
	}
	tm.waitScreen(pane, "5-hour usage limit · continues at")

	cont, ok := w.api.WaitAfter(mark, 60*time.Second, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && r.Time.After(reset) && strings.Contains(r.LastUserText(), "continue")
	})
	if !ok {
		t.Fatalf("nothing went on after the reset; screen:\n%s", tm.capture(pane))
	}
	if cont.SessionID != conv {
		t.Fatalf("the continue ran in conversation %s, want %s", cont.SessionID, conv)
	}
	if texts := strings.Join(cont.UserTexts(), "\n"); !strings.Contains(texts, "build the parser") {
		t.Fatalf("the lost prompt did not go out again with the continue: %q", texts)
	}
	x = w.session("X", "the limit cleared", func(st *state.State) bool { return st.Limit == "" })
	if n := len(w.agentStarts()); n != starts || x.Restarts != 0 || x.LastExit == "crash" {
		t.Fatalf("the limit was handled as a crash: %d starts, %+v", n-starts, x)
	}
	if !proc.Alive(agentPID(t, w)) {
		t.Fatal("claude is gone")
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// With SUPERCLAUDE_LIMIT_CONTINUE=0 nothing goes on by itself, and the
// status line says so (issue 18: it still said "continues at 14:02"): the
// variable reaches the supervisor's policy and the hooks claude runs, the
// limit is recorded as the person's to go on from, and the line claude
// draws says "resets at … · type to go on" — never "continues at" — and
// +status "(you go on)".
func TestLimitContinueOffSaysTypeToGoOn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.unsetEnv("ANTHROPIC_API_KEY")
	w.setEnv("ANTHROPIC_AUTH_TOKEN="+fakeapi.GatewayToken, "SUPERCLAUDE_LIMIT_CONTINUE=0")
	tm := w.tmux()
	pane := tm.pane("limitoff", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	sess := w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })

	// A reset an hour ahead: the test never waits for it.
	reset := time.Now().Add(time.Hour).Truncate(time.Minute)
	w.api.SetGate(fakeapi.LimitedUntil(reset, fakeapi.UsageLimited))
	tm.typeLine(pane, "build the parser")
	st := w.session(sess.Name, "the limit recorded", func(st *state.State) bool { return st.Limit != "" })
	if st.LimitContinue != state.LimitByNobody {
		t.Errorf("the limit records %q going on after it, want %q (the person)", st.LimitContinue, state.LimitByNobody)
	}
	screen := tm.waitScreen(pane, "resets at "+reset.Local().Format("15:04")+" · type to go on")
	if strings.Contains(screen, "continues at") {
		t.Errorf("the status line promises a continue that will not come:\n%s", screen)
	}
	if out, err := w.sc("+status"); err != nil || !strings.Contains(out, "(you go on)") {
		t.Errorf("+status does not say the person goes on: %v\n%s", err, out)
	}
	w.api.SetGate(nil)
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
