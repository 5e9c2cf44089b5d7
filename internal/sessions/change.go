package sessions

import (
	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/state"
)

// The +session subcommands that change one session: each acts on the
// session which names (Lookup: else this agent's or this pane's) and
// returns it as it now is. actor names the command in the event log.

// Lookup is the session which names, in the sessions directory (Find).
func Lookup(actor, which string) (*state.Session, error) {
	s, err := OpenStore(actor)
	if err != nil {
		return nil, err
	}
	return Find(s, which)
}

// change applies op to the session which names.
func change(actor, which string, op func(s *state.Store, name string) (*state.State, error)) (*state.Session, error) {
	sess, err := Lookup("session "+actor, which)
	if err != nil {
		return nil, err
	}
	st, err := op(sess.Store, sess.Name)
	if err != nil {
		return nil, err
	}
	sess.State = st
	return sess, nil
}

// Phase records the session's current phase (state.Store.Phase).
func Phase(which, phase string) (*state.Session, error) {
	return change("phase", which, func(s *state.Store, name string) (*state.State, error) { return s.Phase(name, phase) })
}

// Deactivate marks the session completed, with a description and search
// keywords (state.Store.Deactivate).
func Deactivate(which, desc, keywords string) (*state.Session, error) {
	return change("deactivate", which, func(s *state.Store, name string) (*state.State, error) {
		return s.Deactivate(name, desc, keywords)
	})
}

// Update sets fields, each key=value (state.Store.Set).
func Update(which string, fields []string) (*state.Session, error) {
	return change("update", which, func(s *state.Store, name string) (*state.State, error) { return s.Set(name, fields) })
}

// Target sets the file the status line shows (state.Store.Target).
func Target(which, file string) (*state.Session, error) {
	return change("target", which, func(s *state.Store, name string) (*state.State, error) { return s.Target(name, file) })
}

// Reset re-arms the progress breaker of a halted session
// (state.Store.Reset).
func Reset(which string) (*state.Session, error) {
	return change("reset", which, func(s *state.Store, name string) (*state.State, error) { return s.Reset(name) })
}

// List is `+session list`: every session of the sessions directory, as
// +status shows them.
func List() ([]cli.SessionView, error) {
	s, err := OpenStore("session list")
	if err != nil {
		return nil, err
	}
	return LocalViews([]*state.Store{s}, nil), nil
}

// Reindex rebuilds the sessions directory's pane and supervisor lookup
// index from the state files.
func Reindex() error {
	s, err := OpenStore("session reindex")
	if err != nil {
		return err
	}
	return s.Reindex()
}
