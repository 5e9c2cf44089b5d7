package sessions

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Remove is `+session rm`: it removes the session which names (a name,
// as +status shows it, or a session directory), in the sessions directory
// dir or else in any of the user's, unless something runs it. It returns
// the session removed.
func Remove(dir, which string) (*state.Session, error) {
	stores, err := ViewStores(dir)
	if err != nil {
		return nil, err
	}
	sess, err := FindIn(stores, which)
	if err != nil {
		return nil, err
	}
	sess.Store.Actor = "session rm"
	return sess, remove(sess.Store, sess.Name, "asked for by name")
}

// Idle lists the sessions, in the sessions directory dir or else in every
// one of the user's, in which nothing has happened since before (and that
// nothing runs): what `+session prune` removes. Idle means what +status's
// ACTIVITY says (State.LastActivity); running counts the sessions as idle
// that are left out because something runs them. A sessions directory it
// cannot read is said on stderr and passed over.
func Idle(dir string, before time.Time) (idle []state.Idle, running int, err error) {
	stores, err := ViewStores(dir)
	if err != nil {
		return nil, 0, err
	}
	for _, s := range stores {
		found, live, err := s.Prunable(before)
		if err != nil {
			fmt.Fprintf(os.Stderr, "superclaude: sessions directory %s: %v\n", s.Root, err)
			continue
		}
		idle, running = append(idle, found...), running+live
	}
	return idle, running, nil
}

// Prune removes an idle session (Idle), unless it came back to life
// meanwhile; reason says why, in the event log.
func Prune(s state.Idle, reason string) error {
	s.Store.Actor = "session prune"
	return remove(s.Store, s.Name, reason)
}

// remove removes a session nothing runs, saying in words why a live one
// is kept.
func remove(s *state.Store, name, reason string) error {
	me, err := proc.Self()
	if err != nil {
		return err
	}
	err = s.Remove(name, reason, me)
	if !errors.Is(err, state.ErrLive) {
		return err
	}
	st, lerr := s.Load(name)
	if lerr != nil {
		return err
	}
	if HasControlSocket(st.PID) {
		return fmt.Errorf("session %s is running under superclaude pid %d: stop it first (the dashboard's s, or +down for a fleet)", name, st.PID)
	}
	if st.Lifecycle == state.Completed {
		// Not "held" (issue 19): +status shows it completed.
		return fmt.Errorf("session %s is completed, but the shell where it was activated by hand (pid %d) still runs: "+
			"it can be removed once that shell exits", name, st.PID)
	}
	return fmt.Errorf("session %s is held by pid %d, the shell where it was activated by hand: it is released when that shell exits", name, st.PID)
}
