package dashboard

import (
	"time"

	"github.com/superclaude/superclaude/internal/proc"
)

// Status is what the dashboard says of a session's supervisor.
type Status string

// The three statuses `+status` and the dashboard tell apart.
const (
	// Running: the owner is alive and showed a sign of life lately.
	Running Status = "running"
	// Stopped: the owner is dead (or the session has none).
	Stopped Status = "stopped"
	// Stale: the owner is alive but no heartbeat came for longer than the
	// stale threshold: a hung agent, or one nobody has talked to.
	Stale Status = "stale"
)

// StatusOf decides a session's status: stopped unless its owner is alive;
// stale when the last sign of life (the latest of its heartbeat and its
// activation) is older than staleAfter; running otherwise. A staleAfter of
// zero or less never calls a session stale.
func StatusOf(ownerAlive bool, lastSign, now time.Time, staleAfter time.Duration) Status {
	switch {
	case !ownerAlive:
		return Stopped
	case staleAfter > 0 && !lastSign.IsZero() && now.Sub(lastSign) > staleAfter:
		return Stale
	}
	return Running
}

// Row is one session as the dashboard shows it.
type Row struct {
	// Session is the session directory's name, Dir its absolute path.
	Session, Dir string
	// Pane is the session's pane identity ("" when it has none).
	Pane string
	// Supervisor is the identity of the session's owner, as its state
	// file records it.
	Supervisor proc.Identity
	// Status is running, stopped or stale.
	Status Status
	// Skill and Phase are the skill and its current phase.
	Skill, Phase string
	// Lifecycle and Overflowed are the session's lifecycle and overflow
	// mark.
	Lifecycle  string
	Overflowed bool
	// Context is the context window used, 0.0–1.0.
	Context float64
	// Restarts counts the agent restarts the supervisor made.
	Restarts int
	// Cost is the conversation's cost in USD; nil when the state does not
	// record one.
	Cost *float64
	// NeedsInput says whether the agent waits for a person; nil when the
	// state does not say.
	NeedsInput *bool
	// Limit names a usage limit the agent is waiting out ("" for none or
	// unknown), LimitUntil when it resets.
	Limit      string
	LimitUntil time.Time
	// Halted is why the progress breaker stopped restarting the session
	// ("" when it did not).
	Halted string
	// LastEvent is the session's latest line in its root's event log,
	// without its time; LastEventAt is that time.
	LastEvent   string
	LastEventAt time.Time
	// Heartbeat is the session's last sign of life.
	Heartbeat time.Time
}

// key identifies a row across refreshes.
func (r Row) key() string { return r.Dir }
