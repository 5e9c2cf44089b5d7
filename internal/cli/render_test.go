package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Regression: raw escape sequences in a pane id, a lifecycle or any value
// of the state reached the terminal through +status, +session list and
// +why.
func TestAttackEscapesInStateNeverReachStatusOrWhy(t *testing.T) {
	var b strings.Builder
	WriteTable(&b, []SessionView{{
		Name: "s", Pane: "f:w:\x1b]0;pwned\x07p", PID: 1, Lifecycle: state.Lifecycle("active\x1b[2J"),
		LastActivity: "\x1b[31myesterday",
	}}, time.Now())
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("table: %q", b.String())
	}
	if !strings.Contains(b.String(), "f:w:") {
		t.Errorf("table lost the pane: %q", b.String())
	}

	ev := state.Event{
		Time: time.Now(), Session: "s", Actor: "hook\x1b[8m", Kind: "transition", Reason: "phase \x1b]52;c;eA==\x07x\ny",
		Changes: map[string][2]any{"currentPhase": {"a", "\x1b[2Jb"}, "fleetPaneId\x1b[1m": {nil, "p"}},
	}
	for _, kind := range []string{"transition", "agent-start", "agent-exit", "quarantine", "other\x1b[5m"} {
		ev.Kind = kind
		ev.Detail = map[string]any{"pid": "\x1b[31m1", "plan": "\x1b[2J", "exit": "\x1b[1m", "decision": "\x1b[1m"}
		got := FormatEvent(ev)
		if strings.ContainsAny(got, "\x1b\x07\n") {
			t.Errorf("%s: event line %q", kind, got)
		}
	}
}

// Regression: two projects each with a session "demo" showed as two rows
// named demo, with nothing to tell them apart. A name two sessions
// directories share is shown as the session's directory (home as ~);
// unique names stay names.
func TestSessionsSharingANameShowTheirDirectories(t *testing.T) {
	views := []SessionView{
		{Name: "demo", Dir: "/home/me/a/sessions/demo"},
		{Name: "demo", Dir: "/srv/b/sessions/demo"},
		{Name: "solo", Dir: "/home/me/a/sessions/solo"},
	}
	got := displayNames(views, "/home/me")
	want := []string{"~/a/sessions/demo", "/srv/b/sessions/demo", "solo"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("displayNames = %q, want %q", got, want)
	}
	var b strings.Builder
	if err := WriteTable(&b, views, time.Now()); err != nil || !strings.Contains(b.String(), "/srv/b/sessions/demo") {
		t.Errorf("table:\n%s", b.String())
	}
}

// Issue 19: +status showed an unlabelled pane as superclaude knows it,
// "%0@/tmp/tmux-1000/default@1796160603", where the dashboard shows %0.
func TestStatusShowsAnUnlabelledPaneAsItsNumber(t *testing.T) {
	views := []SessionView{
		{Name: "a", Pane: "%7@/tmp/tmux-1000/default@1796160603"},
		{Name: "b", Pane: "work:main:A"},
	}
	var b strings.Builder
	if err := WriteTable(&b, views, time.Now()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "/tmp/tmux") || !regexp.MustCompile(`(?m)^a +%7 `).MatchString(b.String()) ||
		!regexp.MustCompile(`(?m)^b +work:main:A `).MatchString(b.String()) {
		t.Errorf("table:\n%s", b.String())
	}
}

// An agent whose status cannot be read now (its rollout file gone, say)
// shows in +status as unknown, with why — in the table and in --json —
// not as an empty cell (an audit of issue 16); the why goes once the
// agent's status can be read again.
func TestAnUnreadableAgentStatusShowsUnknownWithWhy(t *testing.T) {
	now := time.Now()
	st := &state.State{PID: 1, Lifecycle: state.Active, LastHeartbeat: now, AgentProfile: "codex",
		AgentStatus: "unknown", AgentUnknown: "its status cannot be read: no such file or directory"}
	v := View(state.Session{Name: "s", State: st}, true, now)
	if v.Agent != "unknown" || v.AgentUnknown != st.AgentUnknown {
		t.Fatalf("view %+v", v)
	}
	var b strings.Builder
	WriteTable(&b, []SessionView{v}, now)
	if !strings.Contains(b.String(), "codex: unknown (its status cannot be read: no such file or directory)") {
		t.Errorf("table:\n%s", b.String())
	}
	st.AgentStatus = "idle"
	if v := View(state.Session{Name: "s", State: st}, true, now); v.AgentUnknown != "" {
		t.Errorf("an agent read again still shows why it was unknown: %+v", v)
	}
}
