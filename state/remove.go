package state

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
	"github.com/superclaude/superclaude/proc"
)

// ErrLive reports a session whose owner — its supervisor, or the shell
// where it was activated by hand — is running: such a session is never
// removed.
var ErrLive = errors.New("the session is live")

// Remove deletes the session name: its directory and everything in it
// (state, dehydrated context, a skill's logs), never following a link, so
// that nothing outside the session is reached. It refuses, with ErrLive, a
// session whose owner is alive, unless that owner is by (a supervisor
// tidying up the session it made: see supervise's dropEmpty). The check
// is made under the session's lock, which every writer takes: a
// supervisor that activates the session meanwhile either comes first,
// and the session is refused, or after, and makes it anew.
//
// The directory is first renamed aside (".NAME.removed-…", one step that
// no reader can see half done), then removed, and so are the lookup
// index's entries that name it; the removal is recorded in the event log,
// with reason (unless the store holds the session's events: see
// [Store.HoldEvents]).
func (s *Store) Remove(name, reason string, by proc.Identity) error {
	if err := CheckName(name); err != nil {
		return err
	}
	root, err := s.tree().open()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session %s: %w", name, ErrNoSession)
	}
	if err != nil {
		return err
	}
	defer root.Close()
	sd, err := root.Child(name, false)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session %s: %w", name, ErrNoSession)
	}
	if err != nil {
		return err
	}
	defer sd.Close()
	lock, err := sd.Lock(lockFile)
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer lock.Unlock()
	// A state file that does not parse is no live session's; one that is
	// missing leaves a directory that is no session at all, which is
	// removed as well (what a crash between mkdir and the first write
	// leaves).
	st, err := s.loadIn(root, name)
	switch {
	case err == nil:
		if OwnerAlive(st) && !OwnedBy(st, by) {
			return fmt.Errorf("%w: %s is run by pid %d", ErrLive, name, st.PID)
		}
	case errors.Is(err, ErrNoSession):
	default:
		var bad *Error
		if !errors.As(err, &bad) {
			return err
		}
	}
	if err := s.removeDir(root, name); err != nil {
		return err
	}
	if st != nil {
		s.unindex(name, st)
	}
	s.Append(Event{Session: name, Kind: "removed", Reason: reason})
	return nil
}

// unindex drops the lookup index's entries that name the removed session
// st: its supervisor's and its pane's. Without it they stayed until the
// next lookup noticed the directory had gone — a record of a session that
// no longer exists. The caller holds the session's lock, which comes
// before the index's, as in Update.
func (s *Store) unindex(name string, st *State) {
	dir, err := s.Dir(name)
	if err != nil {
		return
	}
	l, err := s.index.lock()
	if err != nil {
		return
	}
	defer l.Unlock()
	s.index.removeStale(dir, st, &State{})
}

// Files lists what the session directory name holds besides superclaude's
// own state file, its lock and what a write leaves for an instant (a
// temporary file): a skill's logs, the dehydrated context, anything a
// person put there.
func (s *Store) Files(name string) ([]string, error) {
	dir, err := s.Dir(name)
	if err != nil {
		return nil, err
	}
	names, err := s.tree().readDirNames(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if n != StateFile && n != lockFile && !strings.HasPrefix(n, "."+StateFile+safefs.TempPrefix) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Idle is one session Prunable found, and since when nothing happened in
// it.
type Idle struct {
	Session
	Since time.Time
}

// Prunable lists the sessions of the root in which nothing has happened
// since before cutoff (State.LastActivity, the ACTIVITY +status shows)
// and whose owner is not running, oldest first: what `+session prune`
// offers to remove; running counts the idle ones left out because their
// owner runs, which prune says. A state file that does not parse is left
// out (it is kept aside for a person to look at, never pruned).
func (s *Store) Prunable(cutoff time.Time) (out []Idle, running int, err error) {
	sessions, err := s.List()
	if err != nil {
		return nil, 0, err
	}
	for _, sess := range sessions {
		since := sess.State.LastActivity()
		switch {
		case !since.Before(cutoff):
		case OwnerAlive(sess.State):
			running++
		default:
			out = append(out, Idle{Session: sess, Since: since})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out, running, nil
}
