package supervise

import (
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

func TestOverdue(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	wait := 2 * time.Minute
	over := func(f func(*state.State)) *state.State {
		st := &state.State{Lifecycle: state.Active, Overflowed: true}
		if f != nil {
			f(st)
		}
		return st
	}
	for _, tc := range []struct {
		name      string
		st        *state.State
		since     time.Time
		now       time.Time
		due       bool
		sinceKept bool // the returned since is the one given (or now when it was zero)
	}{
		{"no session", nil, t0, t0.Add(time.Hour), false, false},
		{"healthy", &state.State{Lifecycle: state.Active}, t0, t0.Add(time.Hour), false, false},
		{"first seen overflowed: the clock starts", over(nil), time.Time{}, t0, false, true},
		{"overflowed, within the wait", over(nil), t0, t0.Add(wait - time.Second), false, true},
		{"overflowed past the wait", over(nil), t0, t0.Add(wait), true, true},
		{"dehydrating: the agent is on it", over(func(s *state.State) { s.Lifecycle = state.Dehydrating }), t0, t0.Add(time.Hour), false, false},
		{"restart already requested", over(func(s *state.State) { s.KillRequested = true }), t0, t0.Add(time.Hour), false, false},
		{"a fresh agent yet to activate", over(func(s *state.State) { s.Lifecycle = state.Restarting }), t0, t0.Add(time.Hour), false, false},
	} {
		due, since := overdue(tc.st, tc.since, tc.now, wait)
		wantSince := time.Time{}
		if tc.sinceKept {
			wantSince = tc.since
			if wantSince.IsZero() {
				wantSince = tc.now
			}
		}
		if due != tc.due || !since.Equal(wantSince) {
			t.Errorf("%s: due %v since %v, want %v %v", tc.name, due, since, tc.due, wantSince)
		}
	}
}
