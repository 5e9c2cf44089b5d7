// Package sessions is every session of the user, wherever it lives: it
// opens the sessions directory a command works in, finds a session by its
// name, its directory, this agent or this pane, across every sessions
// directory the user's lookup index knows, and reads them all at once for
// the views (+status, +dashboard, +history). Writing a session's state is
// the state package's; this package decides which session is meant.
package sessions

import (
	"fmt"
	"os"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/state"
)

// OpenStore opens the sessions directory (config.SessionsDir) with the
// user's lookup index, reporting skipped corrupt files on stderr. Opening
// creates nothing; only a write does. actor names the command in the event
// log.
func OpenStore(actor string) (*state.Store, error) {
	dir, err := config.SessionsDir()
	if err != nil {
		return nil, err
	}
	idx, err := config.IndexDir()
	if err != nil {
		return nil, err
	}
	s, err := state.OpenIn(dir, idx)
	if err != nil {
		return nil, err
	}
	s.Actor = actor
	s.Report = func(err error) { fmt.Fprintln(os.Stderr, "superclaude: skipping:", err) }
	return s, nil
}
