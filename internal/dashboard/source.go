package dashboard

import (
	"context"
	"os/exec"
	"time"
)

// Source is everything the dashboard reads from and does to the world.
// The model calls it only from commands, never from Update or View.
type Source interface {
	// Rows reads every session.
	Rows(ctx context.Context) (Snapshot, error)
	// Restart asks the session's supervisor to restart its agent: in its
	// conversation (unless the context had filled up), or, when fresh, with
	// a fresh context and the continuation prompt. waiting says that the
	// supervisor first lets the agent finish its turn.
	Restart(ctx context.Context, r Row, fresh bool) (waiting bool, err error)
	// Stop asks the session's supervisor to stop its agent and exit.
	Stop(ctx context.Context, r Row) error
	// Why returns the session's event log as lines for a person.
	Why(ctx context.Context, r Row) ([]string, error)
	// Attach shows the session's pane. When that needs the terminal (the
	// dashboard runs outside tmux and must attach a client), it returns
	// the command to run in the foreground; nil when it is done (a tmux
	// client was switched to the pane).
	Attach(ctx context.Context, r Row) (*exec.Cmd, error)
}

// Snapshot is one reading of every session.
type Snapshot struct {
	Rows []Row
	// Problems are what the reading stepped over (a corrupt state file, a
	// sessions root it could not read), for the person to see.
	Problems []string
	// At is when the reading was made: the clock the view's ages use.
	At time.Time
	// Hosts are the other hosts the reading covers (HostsSource): the
	// list then has a HOST column. Unreachable says, for each that did not
	// answer, since when it has not.
	Hosts       []string
	Unreachable []string
}
