package claude

import (
	"errors"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// HeartbeatEvery is how often a status-line tick that changes nothing but
// the heartbeat is written, when no supervisor runs the agent. Claude Code
// calls its status line after every message and, with refreshInterval, on
// a timer; most ticks repeat what the state already says, and writing each
// one would cost an fsync'd file and a new inode for nothing. Under a
// supervisor a tick never writes the heartbeat alone, so that an unchanged
// status line at 1 Hz costs no write at all (it cost a write and two
// fsyncs every 5 s); nor does the supervisor, which a view asks instead
// (control.Ask).
const HeartbeatEvery = time.Minute

// TickResult is what binding one status-line tick did.
type TickResult struct {
	// Info is what the status line shows.
	Info LineInfo
	// Bound is the conversation id the tick bound to the session when it
	// was not bound before: the supervisor takes its lease.
	Bound string
	// Wrote says whether the state file was written.
	Wrote bool
}

// Tick binds one status-line tick to sess, the session the agent works in
// (see [state.Store.Mine]), on behalf of the supervisor me (zero when the
// agent runs under none): the PID claim, then [Bind]. It is the one code
// path of both the supervisor's binder and a status line that reaches no
// supervisor.
//
// The state is written only when the tick changes a tracked field —
// sessionId, contextUsage, lifecycle, the owner — or, with no supervisor,
// when the stored heartbeat is older than [HeartbeatEvery]. The check runs
// first on the state sess already holds, without the lock ([Peek]); only a
// tick that has something to write takes the lock, and decides again
// under it.
func Tick(sess *state.Session, me proc.Identity, tick StatusLine, now time.Time, threshold float64) (TickResult, error) {
	apply := tickApply(me, tick, now)
	var res TickResult
	probe := sess.State.Clone()
	if !apply(probe) {
		res.Info = Line(sess.Name, probe, tick, threshold)
		return res, nil
	}
	st, err := sess.Store.Update(sess.Name, "status line", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		before := st.SessionID
		if !apply(st) {
			return state.ErrNoChange
		}
		if st.SessionID != before {
			res.Bound = st.SessionID
		}
		res.Wrote = true
		return nil
	})
	if err != nil {
		if errors.Is(err, state.ErrNoSession) {
			return res, err
		}
		// The tick still gets its line from what was read.
		res.Info = Line(sess.Name, probe, tick, threshold)
		return res, err
	}
	res.Info = Line(sess.Name, st, tick, threshold)
	return res, nil
}

// tickApply returns what a tick does to a state: it reports whether there
// is anything to write.
func tickApply(me proc.Identity, tick StatusLine, now time.Time) func(*state.State) bool {
	return func(st *state.State) bool {
		last := st.LastHeartbeat
		alive := st.PID > 0 && st.PID != me.PID && state.OwnerAlive(st)
		claimed := Claim(st, me, alive)
		changed := Bind(st, tick, now)
		return claimed || changed || (me.IsZero() && now.Sub(last) >= HeartbeatEvery)
	}
}

// Peek is Tick's first look: the line a tick shows when it would write
// nothing, from the state sess holds, and ok; ok is false when the tick
// has something to write and must go through Tick (under a supervisor,
// its binder, which also takes the conversation's lease). A status line
// whose tick changes nothing thus costs one read and one decision, and no
// round trip to the supervisor.
func Peek(sess *state.Session, me proc.Identity, tick StatusLine, now time.Time, threshold float64) (LineInfo, bool) {
	probe := sess.State.Clone()
	if tickApply(me, tick, now)(probe) {
		return LineInfo{}, false
	}
	return Line(sess.Name, probe, tick, threshold), true
}

// Line is what the status line shows for session name in state st, with
// what the tick itself says: model, cost, usage.
func Line(name string, st *state.State, tick StatusLine, threshold float64) LineInfo {
	info := LineInfo{Threshold: threshold}
	if st != nil {
		info = LineInfo{
			Session: name, Skill: st.Skill, Phase: st.CurrentPhase, Lifecycle: string(st.Lifecycle),
			Overflowed: st.Overflowed, KillRequested: st.KillRequested, Target: st.TargetFile,
			Limit: st.Limit, LimitedUntil: st.LimitedUntil, LimitContinue: st.LimitContinue,
			Threshold: threshold,
		}
	}
	info = WithTick(info, tick)
	if st != nil && st.FreshAfterOverflow() {
		// The fresh agent of an overflow restart runs in a new context
		// until it activates the session (which clears overflowed): the
		// old context's advice is not true of it, unless the new one has
		// filled up too.
		usage := st.ContextUsage
		if info.HasUsage {
			usage = info.Usage
		}
		th := threshold
		if th <= 0 {
			th = DefaultThreshold
		}
		info.Overflowed = usage >= th
		info.Restarted = !info.Overflowed
	}
	return info
}

// WithTick adds what the tick itself says to info: model, cost, usage.
func WithTick(info LineInfo, tick StatusLine) LineInfo {
	info.Model = tick.Model.DisplayName
	info.CostUSD = tick.Cost.TotalCostUSD
	if u, ok := tick.Usage(); ok {
		info.Usage, info.HasUsage = u, true
	}
	return info
}
