package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// TestAQuietSupervisorIsNotStale: a view called a live supervisor stale
// when its heartbeat, which it rewrote every minute for that purpose, was
// 5 minutes old — a wakeup a minute for every idle agent (issue 22). What
// the state file says no longer decides it: a live owner is running, and
// asked (MarkSupervisors), stale only when it serves a control socket and
// does not answer; one that serves none is a shell; a dead one is
// stopped, and not asked.
func TestAQuietSupervisorIsNotStale(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	hour := now.Add(-time.Hour)
	old := &state.State{LastHeartbeat: hour, ActivatedAt: hour, StartedAt: hour, AgentStatus: "waiting"}
	views := []SessionView{
		View(state.Session{Name: "answers", State: withPID(old, 10)}, true, now),
		View(state.Session{Name: "silent", State: withPID(old, 11)}, true, now),
		View(state.Session{Name: "shell", State: withPID(old, 12)}, true, now),
		View(state.Session{Name: "dead", State: withPID(old, 13)}, false, now),
		View(state.Session{Name: "ownerless", State: withPID(old, 0)}, true, now),
	}
	owners := []proc.Identity{{PID: 10, Start: 1}, {PID: 11, Start: 1}, {PID: 12, Start: 1}, {PID: 13, Start: 1}, {}}
	var asked []proc.Identity
	MarkSupervisors(views, owners, func(ids []proc.Identity) []control.Answer {
		asked = append(asked, ids...)
		out := make([]control.Answer, len(ids))
		for i, id := range ids {
			out[i] = map[int]control.Answer{10: control.Answered, 11: control.Silent, 12: control.NoSocket}[id.PID]
		}
		return out
	})
	got := map[string]string{}
	for _, v := range views {
		got[v.Name] = fmt.Sprintf("%s/%v/%s/%v", v.State, v.NoSupervisor, v.Agent, v.NeedsInput)
	}
	want := map[string]string{
		"answers": "running/false/waiting/true", "silent": "stale/false//false", "shell": "running/true/waiting/true",
		"dead": "stopped/false//false", "ownerless": "running/false/waiting/true",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %s, want %s", name, got[name], w)
		}
	}
	if len(asked) != 3 {
		t.Errorf("asked %v: want only the three live owners with a PID", asked)
	}
}

func withPID(st *state.State, pid int) *state.State {
	c := st.Clone()
	c.PID = pid
	return c
}

// The ACTIVITY column is the latest sign of life the state records, the
// agent's last change between busy and idle among them: a supervisor
// writes no heartbeat of its own.
func TestLastActivityIsTheLatestSign(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	st := &state.State{LastHeartbeat: now.Add(-time.Hour), AgentStatusAt: now.Add(-time.Minute), StartedAt: now.Add(-2 * time.Hour)}
	if got := st.LastActivity(); !got.Equal(now.Add(-time.Minute)) {
		t.Errorf("LastActivity = %v, want the agent's last status change", got)
	}
}

// Issue 18: +status shows what is true now: the fresh agent of an
// overflow restart is not "overflowed", and a limit nobody continues
// says so.
func TestStatusFlagsAreTrueNow(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		st        state.State
		want, not string
	}{
		{"overflowed", state.State{Overflowed: true, Lifecycle: state.Active}, "overflowed", "fresh"},
		{"fresh after an overflow restart", state.State{Overflowed: true, Lifecycle: state.Restarting}, "fresh after overflow", "overflowed,"},
		{"continuing off", state.State{Lifecycle: state.Active, Limit: "5-hour usage limit", LimitedUntil: now, LimitContinue: "off"}, "(you go on)", ""},
	} {
		st := tc.st
		st.StartedAt, st.LastHeartbeat = now, now
		var b strings.Builder
		v := View(state.Session{Name: "x", State: &st}, true, now)
		WriteTable(&b, []SessionView{v}, now)
		line := strings.Split(b.String(), "\n")[1]
		if !strings.Contains(line, tc.want) || (tc.not != "" && strings.Contains(line+",", tc.not)) {
			t.Errorf("%s: %q", tc.name, line)
		}
	}
}

// Regression, issue 19: +status made values up. A stopped session read
// "stopped (pid N) … restarting" — a supervisor that is gone restarts
// nothing, and +help codes gives the pid of a running one only — and a
// Codex or Gemini row showed a 0 % context and a $0.00 cost that no CLI
// but Claude Code reports: "–", and no contextUsage in the JSON. A claude
// row keeps its values, 0 % and $0.00 included.
func TestStatusShowsNothingMadeUp(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	loading := true
	stopped := &state.State{PID: 4242, Lifecycle: state.Restarting, Overflowed: true, Loading: &loading, StartedAt: now}
	codex := &state.State{PID: 4243, Lifecycle: state.Resuming, AgentProfile: "codex", StartedAt: now}
	claude := &state.State{PID: 4244, Lifecycle: state.Active, AgentProfile: "claude", StartedAt: now}
	live := &state.State{PID: 4245, Lifecycle: state.Resuming, AgentProfile: "gemini", StartedAt: now}
	views := []SessionView{
		View(state.Session{Name: "old", State: stopped}, false, now),
		View(state.Session{Name: "cx", State: codex}, false, now),
		View(state.Session{Name: "cl", State: claude}, false, now),
		View(state.Session{Name: "gm", State: live}, true, now),
	}
	var b strings.Builder
	if err := WriteTable(&b, views, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	row := func(name string) []string {
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == name {
				return f
			}
		}
		t.Fatalf("no row %s:\n%s", name, b.String())
		return nil
	}
	for _, name := range []string{"old", "cx", "cl"} {
		if r := strings.Join(row(name), " "); strings.Contains(r, "pid") || strings.Contains(r, "restarting") || strings.Contains(r, "resuming") {
			t.Errorf("stopped row %q", r)
		}
	}
	if r := strings.Join(row("old"), " "); !strings.Contains(r, "active") {
		t.Errorf("the stopped row after a restart: %q, want its lifecycle active", r)
	}
	if r := strings.Join(row("gm"), " "); !strings.Contains(r, "(pid 4245)") || !strings.Contains(r, "resuming") {
		t.Errorf("a running row keeps its pid and what it is doing: %q", r)
	}
	for _, name := range []string{"cx", "gm"} {
		if r := strings.Join(row(name), " "); strings.Contains(r, "0%") || strings.Contains(r, "$0.00") || strings.Count(r, "–") < 2 {
			t.Errorf("%s row: %q, want – for its context and cost", name, r)
		}
	}
	if r := strings.Join(row("cl"), " "); !strings.Contains(r, "0%") || !strings.Contains(r, "$0.00") {
		t.Errorf("claude row: %q, want 0%% and $0.00", r)
	}
	cx, _ := views[1].AppendJSON(nil)
	cl, _ := views[2].AppendJSON(nil)
	if strings.Contains(string(cx), "contextUsage") || !strings.Contains(string(cl), `"contextUsage":0,`) {
		t.Errorf("JSON: codex %s\nclaude %s", cx, cl)
	}
}

// Issue 19: a session completed by hand (+session deactivate) in the shell
// that activated it showed as "held by a shell (pid N)", running in the
// JSON. Completed, nothing holds it: it is stopped, and +status's STATE
// says completed, as the dashboard's does.
func TestACompletedSessionIsNotHeldByItsShell(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	st := &state.State{PID: 12, Lifecycle: state.Completed, StartedAt: now, AgentStatus: "idle"}
	views := []SessionView{View(state.Session{Name: "demo", State: st}, true, now)}
	MarkSupervisors(views, []proc.Identity{{PID: 12, Start: 1}}, func(ids []proc.Identity) []control.Answer {
		return []control.Answer{control.NoSocket}
	})
	if v := views[0]; v.NoSupervisor || v.State != Stopped || v.Agent != "" {
		t.Errorf("view: state %s, held by a shell %v, agent %q; want stopped, not held, no agent", v.State, v.NoSupervisor, v.Agent)
	}
	var b strings.Builder
	if err := WriteTable(&b, views, now); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "held") || !regexp.MustCompile(`demo +- +completed `).MatchString(out) {
		t.Errorf("+status:\n%s\nwant demo completed, not held", out)
	}
}
