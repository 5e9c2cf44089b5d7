package supervise

import (
	"time"

	"github.com/superclaude/superclaude/state"
)

// What the supervisor of a running agent does while it waits for the agent
// to exit, besides passing on what the agent says it is doing: go on after
// a usage limit has reset, and dehydrate an agent that left an overflow
// undealt with. None of it is polled: the supervisor looks when the
// agent's files or the session's state file change (the kernel says so,
// internal/fswatch), and at the one moment at which the next of these
// falls due — a limit's reset, the end of the dehydrate wait — by a timer
// that fires once, at that time. An idle agent whose files do not change
// costs nothing: there is no heartbeat.

// idleSettle is how long the agent must have been idle at its prompt
// before the supervisor types into it after a limit: claude shows idle
// for a moment between turns, and text typed while it works is queued or
// goes into a dialog. (It was two readings of a once-a-second poll.)
const idleSettle = time.Second

// watchState is what the wait remembers between looks.
type watchState struct {
	// status is the agent's status at the last look, and idleSince when
	// it last became idle.
	status    string
	idleSince time.Time
	// overSince is when an overflow undealt with was first seen (zero:
	// none).
	overSince time.Time
}

// dutyInput is what one look sees.
type dutyInput struct {
	Now    time.Time
	State  *state.State // the session's state; nil without a session
	Status string       // what the agent says it is doing ("" unknown)
	// LimitContinue, Stagger and DehydrateWait are the policy's
	// (DehydrateWait 0: the supervisor never dehydrates for the agent).
	LimitContinue bool
	Stagger       time.Duration
	DehydrateWait time.Duration
}

// duties is what one look decides.
type duties struct {
	// ContinueLimit: type the continue prompt (the limit has reset and
	// the agent has been idle for idleSettle; see limitNext).
	ContinueLimit bool
	// ClearLimit: the agent went on after the limit without
	// superclaude (claude's own auto-continue, or the person).
	ClearLimit bool
	// Dehydrate: the overflow has waited DehydrateWait; dehydrate and
	// restart the agent.
	Dehydrate bool
	// Next is when to look again if nothing changes before (zero: only
	// when something changes).
	Next time.Time
}

// decideDuties is one look: from what it sees and what the last looks
// remembered (updated in place), what to do now and when to look again.
func decideDuties(in dutyInput, w *watchState) duties {
	var d duties
	soonest := func(t time.Time) {
		if !t.IsZero() && (d.Next.IsZero() || t.Before(d.Next)) {
			d.Next = t
		}
	}
	if in.Status != w.status {
		w.status = in.Status
		w.idleSince = time.Time{}
		if in.Status == StatusIdle {
			w.idleSince = in.Now
		}
	}
	st := in.State
	if st != nil && st.Limit != "" {
		// limitNext's "two readings in a row": idle for idleSettle.
		before := ""
		if in.Status == StatusIdle && in.Now.Sub(w.idleSince) >= idleSettle {
			before = StatusIdle
		}
		reset := st.LimitedUntil.Add(in.Stagger)
		switch limitNext(st, in.Now, in.Stagger, in.Status, before) {
		case limitType:
			if in.LimitContinue {
				d.ContinueLimit = true
				w.idleSince = in.Now // settle again before another
			}
		case limitWentOn:
			d.ClearLimit = true
		case limitWait:
			switch {
			case in.Now.Before(reset):
				soonest(reset)
			case st.LimitContinue == state.LimitByClaude && in.Now.Before(reset.Add(claudeContinueGrace)):
				soonest(reset.Add(claudeContinueGrace))
			case in.Status == StatusIdle:
				soonest(w.idleSince.Add(idleSettle))
			}
			// Busy or waiting for the person: its status file says
			// when that changes.
		}
	}
	if in.DehydrateWait > 0 {
		due, since := overdue(st, w.overSince, in.Now, in.DehydrateWait)
		switch {
		case due:
			d.Dehydrate = true
			w.overSince = time.Time{}
		case !since.IsZero():
			w.overSince = since
			soonest(since.Add(in.DehydrateWait))
		default:
			w.overSince = time.Time{}
		}
	}
	return d
}

// lookBudget spaces the looks that file changes ask for: a change is looked
// at at once while the budget lasts — lookBurst looks, one more each
// lookEvery — and, spent, at the moment it has one again, with whatever
// else changed meanwhile. A person's agent changes its files now and then,
// and each change is seen at once — the handful of writes of an agent's
// start among them (its profile, its hooks' first words, the status line
// binding its conversation, which releases a new session's held events);
// one that writes its file many times a second while it works (a Codex
// appending to its rollout) costs a look every lookEvery, as a poll did.
type lookBudget struct {
	left float64
	at   time.Time // when left was last brought up to date
}

const (
	lookBurst = 10
	lookEvery = time.Second
)

func newLookBudget(now time.Time) *lookBudget { return &lookBudget{left: lookBurst, at: now} }

func (b *lookBudget) refill(now time.Time) {
	b.left = min(lookBurst, b.left+float64(now.Sub(b.at))/float64(lookEvery))
	b.at = now
}

// take takes a look from the budget for a change at now; when none is
// left, ok is false and at is when there will be one.
func (b *lookBudget) take(now time.Time) (at time.Time, ok bool) {
	b.refill(now)
	if b.left < 1 {
		return now.Add(time.Duration((1 - b.left) * float64(lookEvery))), false
	}
	b.left--
	return now, true
}

// spend takes a look the timer asked for (one put off, or one due anyway),
// as far as there is budget for it.
func (b *lookBudget) spend(now time.Time) {
	b.refill(now)
	b.left = max(0, b.left-1)
}
