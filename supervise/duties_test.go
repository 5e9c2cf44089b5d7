package supervise

import (
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// A look is one wake of the waiting supervisor: what it sees.
type look struct {
	at     time.Duration // after the limit's reset
	status string
}

// TestDutiesAtALimit plays looks (file changes and timer wakes) through
// decideDuties and checks the last one's answer: type the continue
// prompt, clear the limit, or when to look again — a timer set for that
// moment, never a poll.
func TestDutiesAtALimit(t *testing.T) {
	reset := time.Date(2026, 11, 22, 20, 52, 0, 0, time.UTC)
	limited := &state.State{Limit: "5-hour usage limit", LimitedUntil: reset, LimitContinue: state.LimitBySuperclaude}
	byClaude := &state.State{Limit: "5-hour usage limit", LimitedUntil: reset, LimitContinue: state.LimitByClaude}
	at := func(d time.Duration) time.Time { return reset.Add(d) }
	for _, tc := range []struct {
		name         string
		st           *state.State
		stagger      time.Duration
		off          bool
		looks        []look
		typed, clear bool
		next         time.Time
	}{
		{"after the reset, idle for a second", limited, 0, false,
			[]look{{time.Second, StatusIdle}, {2 * time.Second, StatusIdle}}, true, false, time.Time{}},
		{"idle only a moment: maybe between turns; look again when it has settled", limited, 0, false,
			[]look{{time.Second, StatusBusy}, {1500 * time.Millisecond, StatusIdle}}, false, false, at(2500 * time.Millisecond)},
		{"before the reset: look at the reset", limited, 0, false,
			[]look{{-time.Hour, StatusIdle}}, false, false, reset},
		{"waiting for the person (a dialog): never typed into, no timer", limited, 0, false,
			[]look{{time.Second, StatusWaiting}, {time.Minute, StatusWaiting}}, false, false, time.Time{}},
		{"busy after the reset: it went on without superclaude", limited, 0, false,
			[]look{{time.Second, StatusBusy}}, false, true, time.Time{}},
		{"the fleet pane's stagger not yet passed", limited, 10 * time.Second, false,
			[]look{{5 * time.Second, StatusIdle}}, false, false, at(10 * time.Second)},
		{"…passed", limited, 10 * time.Second, false,
			[]look{{5 * time.Second, StatusIdle}, {11 * time.Second, StatusIdle}}, true, false, time.Time{}},
		{"claude's own auto-continue: look again when its grace is over", byClaude, 0, false,
			[]look{{time.Second, StatusIdle}, {time.Minute, StatusIdle}}, false, false, at(claudeContinueGrace)},
		{"no limit", &state.State{}, 0, false, []look{{time.Second, StatusIdle}, {time.Minute, StatusIdle}}, false, false, time.Time{}},
		{"no session", nil, 0, false, []look{{time.Second, StatusIdle}, {time.Minute, StatusIdle}}, false, false, time.Time{}},
		{"going on after limits turned off", limited, 0, true, []look{{time.Second, StatusIdle}, {time.Minute, StatusIdle}}, false, false, time.Time{}},
	} {
		var w watchState
		var d duties
		for _, l := range tc.looks {
			d = decideDuties(dutyInput{Now: at(l.at), State: tc.st, Status: l.status, LimitContinue: !tc.off, Stagger: tc.stagger}, &w)
		}
		if d.ContinueLimit != tc.typed || d.ClearLimit != tc.clear || !d.Next.Equal(tc.next) {
			t.Errorf("%s: type %v, clear %v, next look %v; want %v, %v, %v", tc.name, d.ContinueLimit, d.ClearLimit, d.Next, tc.typed, tc.clear, tc.next)
		}
	}
}

// An overflow the agent leaves undealt with is dehydrated for it once the
// policy's wait has passed since it was first seen: the timer is set for
// that moment, not a poll.
func TestDutiesAtAnOverflow(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	wait := 2 * time.Minute
	over := &state.State{Overflowed: true, Lifecycle: state.Active}
	var w watchState
	d := decideDuties(dutyInput{Now: t0, State: over, DehydrateWait: wait}, &w)
	if d.Dehydrate || !d.Next.Equal(t0.Add(wait)) {
		t.Fatalf("first sight: %+v, want a look at %v", d, t0.Add(wait))
	}
	d = decideDuties(dutyInput{Now: t0.Add(time.Minute), State: over, DehydrateWait: wait}, &w)
	if d.Dehydrate || !d.Next.Equal(t0.Add(wait)) {
		t.Fatalf("a look in between moved the deadline: %+v", d)
	}
	if d = decideDuties(dutyInput{Now: t0.Add(wait), State: over, DehydrateWait: wait}, &w); !d.Dehydrate {
		t.Fatalf("at the deadline: %+v", d)
	}
	// The agent begins to dehydrate: nothing to do, no timer.
	w = watchState{}
	decideDuties(dutyInput{Now: t0, State: over, DehydrateWait: wait}, &w)
	dehydrating := &state.State{Overflowed: true, Lifecycle: state.Dehydrating}
	if d = decideDuties(dutyInput{Now: t0.Add(wait), State: dehydrating, DehydrateWait: wait}, &w); d.Dehydrate || !d.Next.IsZero() {
		t.Fatalf("dehydrating: %+v", d)
	}
}

// A change is looked at at once, a burst of them too, up to lookBurst; past
// that, one look every lookEvery, with what changed meanwhile: a CLI that
// writes its file many times a second costs what a poll did, and a person's
// next change after a quiet while is seen at once again.
func TestLookBudget(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	b := newLookBudget(t0)
	for i := 0; i < lookBurst; i++ {
		if _, ok := b.take(t0.Add(time.Duration(i) * time.Millisecond)); !ok {
			t.Fatalf("change %d of a burst was put off", i)
		}
	}
	at, ok := b.take(t0.Add(10 * time.Millisecond))
	if ok || at.Sub(t0) < 900*time.Millisecond || at.Sub(t0) > lookEvery+10*time.Millisecond {
		t.Fatalf("past the burst: now %v, at %v after the start; want put off about %s", ok, at.Sub(t0), lookEvery)
	}
	// A CLI writing all the time: a look a second.
	looks := 0
	for ms := 0; ms < 10000; ms += 10 {
		now := t0.Add(time.Second + time.Duration(ms)*time.Millisecond)
		if _, ok := b.take(now); ok {
			looks++
		}
	}
	if looks < 9 || looks > 11 {
		t.Fatalf("%d looks in 10 s of writes every 10 ms, want about 10", looks)
	}
	// Quiet for a while: the next change at once.
	if _, ok := b.take(t0.Add(time.Minute)); !ok {
		t.Fatal("a change after a quiet minute was put off")
	}
}
