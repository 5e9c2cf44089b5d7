package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Snapshot is one reading of sessions: the one walk over the user's
// sessions behind +status (its table and --json), +session list, a host's
// answer to another's +status, and the dashboard's rows.
type Snapshot struct {
	// At is when the reading was made: the clock of the views' states.
	At time.Time
	// Sessions are the sessions read, in the order of their stores and,
	// in each, of their names; Views[i] is Sessions[i] as +status shows
	// it.
	Sessions []state.Session
	Views    []cli.SessionView
	// Problems are what the reading stepped over (a sessions directory it
	// could not list), in words for the person; a corrupt state file is
	// its store's to report (state.Store.Report).
	Problems []string
}

// Read reads every session of stores that keep keeps (every one, when
// keep is nil), at the time now. A store whose root was never made, or
// went away, holds no sessions and is no problem. The live owners are
// asked whether they answer as supervisors (control.Ask): a view is what
// tells a hung supervisor from a quiet one, which writes nothing.
func Read(stores []*state.Store, keep func(state.Session) bool, now time.Time) Snapshot {
	return ReadAsking(stores, keep, now, control.Ask)
}

// ReadAsking is Read, asking the live owners with ask
// (cli.MarkSupervisors).
func ReadAsking(stores []*state.Store, keep func(state.Session) bool, now time.Time, ask func([]proc.Identity) []control.Answer) Snapshot {
	snap := Snapshot{At: now}
	for _, s := range stores {
		list, err := s.List()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			snap.Problems = append(snap.Problems, fmt.Sprintf("sessions directory %s: %v", s.Root, err))
			continue
		}
		for _, sess := range list {
			if keep == nil || keep(sess) {
				snap.Sessions = append(snap.Sessions, sess)
			}
		}
	}
	// Each owner is looked up once, all of them together (state.OwnersAlive).
	sts := make([]*state.State, len(snap.Sessions))
	owners := make([]proc.Identity, len(snap.Sessions))
	for i := range snap.Sessions {
		sts[i] = snap.Sessions[i].State
		owners[i] = state.Owner(sts[i])
	}
	alive := state.OwnersAlive(sts)
	snap.Views = make([]cli.SessionView, len(snap.Sessions))
	for i, sess := range snap.Sessions {
		snap.Views[i] = cli.View(sess, alive[i], now)
	}
	cli.MarkSupervisors(snap.Views, owners, ask)
	return snap
}

// Roots lists the sessions roots a reading of every session of the user
// covers: every root the lookup index in indexDir knows, and also (the
// sessions directory of where the command runs, the user's own, which the
// index does not know until something is written there), each once,
// absolute, sorted.
func Roots(indexDir string, also ...string) []string {
	var all []string
	if indexDir != "" {
		all = (&state.Index{Dir: indexDir}).Roots()
	}
	all = append(all, also...)
	seen := map[string]bool{}
	var out []string
	for _, r := range all {
		if abs, err := filepath.Abs(r); err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	sort.Strings(out)
	return out
}
