package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// TestViewStateOfANewSessionIsNotStale: a session whose supervisor had
// just started showed as stale, because its agent had reported no status
// yet and so the supervisor had written no heartbeat.
func TestViewStateOfANewSessionIsNotStale(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	for _, tc := range []struct {
		name                        string
		alive                       bool
		heartbeat, activated, start time.Time
		want                        string
	}{
		{"owner gone", false, ago(time.Second), ago(time.Second), ago(time.Second), Stopped},
		{"heartbeat a minute ago", true, ago(time.Minute), ago(time.Hour), ago(time.Hour), Running},
		{"heartbeat an hour ago", true, ago(time.Hour), ago(time.Hour), ago(time.Hour), Stale},
		{"no heartbeat yet, activated 30 s ago", true, time.Time{}, ago(30 * time.Second), ago(time.Hour), Running},
		{"no heartbeat, activated an hour ago", true, time.Time{}, ago(time.Hour), ago(time.Hour), Stale},
		{"old heartbeat, activated again a minute ago", true, ago(time.Hour), ago(time.Minute), ago(2 * time.Hour), Running},
		{"seed-era file: no activation time, started 30 s ago", true, time.Time{}, time.Time{}, ago(30 * time.Second), Running},
	} {
		st := &state.State{LastHeartbeat: tc.heartbeat, ActivatedAt: tc.activated, StartedAt: tc.start}
		if got := View(state.Session{Name: "x", State: st}, tc.alive, now).State; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestMarkUnsupervisedAsksOnlyAboutLiveOwners(t *testing.T) {
	views := []SessionView{
		{Name: "supervised", PID: 10, OwnerAlive: true},
		{Name: "shell", PID: 11, OwnerAlive: true},
		{Name: "dead", PID: 12},
		{Name: "ownerless", OwnerAlive: true},
	}
	var asked []int
	MarkUnsupervised(views, func(pid int) bool { asked = append(asked, pid); return pid == 10 })
	got := map[string]bool{}
	for _, v := range views {
		got[v.Name] = v.NoSupervisor
	}
	if !got["shell"] || got["supervised"] || got["dead"] || got["ownerless"] || len(asked) != 2 {
		t.Errorf("no supervisor: %v, asked about %v; want only shell, asking about 10 and 11", got, asked)
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
