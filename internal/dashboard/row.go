package dashboard

import (
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/proc"
)

// Status is what the dashboard says of a session's supervisor: +status's
// word for it (cli.View decides).
type Status string

// The three statuses `+status` and the dashboard tell apart.
const (
	// Running: the owner is alive and wrote a heartbeat lately.
	Running Status = cli.Running
	// Stopped: the owner is dead (or the session has none).
	Stopped Status = cli.Stopped
	// Stale: the owner is alive and serves a control socket, but did
	// not answer when the view asked (cli.MarkSupervisors): it may hang.
	Stale Status = cli.Stale
)

// Row is one session as the dashboard shows it.
type Row struct {
	// Host is the ssh destination of the machine the session is on, ""
	// for this one.
	Host string
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
	// Context is the context window used, 0.0–1.0; nil when the agent's
	// CLI does not report it (cli.ReportsUsage).
	Context *float64
	// Restarts counts the agent restarts the supervisor made.
	Restarts int
	// Cost is the conversation's cost in USD; nil when the state does not
	// record one.
	Cost *float64
	// NeedsInput says whether the agent waits for a person; nil when
	// nothing says (the agent did not report, or it is not running).
	NeedsInput *bool
	// Limit names a usage limit the agent is waiting out ("" for none or
	// unknown), LimitUntil when it resets.
	Limit      string
	LimitUntil time.Time
	// Halted is why the progress breaker stopped restarting the session
	// ("" when it did not).
	Halted string
	// NoSupervisor is set when the owner is alive but is no supervisor (a
	// shell where `+session activate` was typed): nothing can restart or
	// stop its agent.
	NoSupervisor bool
	// LastEvent is the session's latest line in its root's event log,
	// without its time; LastEventAt is that time.
	LastEvent   string
	LastEventAt time.Time

	// display is the session's name in the list when it is not Session
	// (sortRows sets it).
	display string
}

// key identifies a row across refreshes: the same directory on two hosts
// is two sessions.
func (r Row) key() string { return r.Host + "\x00" + r.Dir }

// name is the session as the list names it: its directory where another
// session has its name (cli.DisplayNames), else its name.
func (r Row) name() string {
	if r.display != "" {
		return r.display
	}
	return r.Session
}
