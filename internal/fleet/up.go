package fleet

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/safefs"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// Options are how a fleet is brought up and down.
type Options struct {
	// Tmux is the tmux server the fleet lives on.
	Tmux tmux.Server
	// Exe is the superclaude binary each pane runs.
	Exe string
	// Env is added to every pane's environment.
	Env []string
	// Grace is how long a supervisor gets to stop before it is killed.
	Grace time.Duration
	// Now stops the supervisors at once, instead of each waiting for its
	// agent to finish its turn.
	Now bool
	// Check makes Up only check every pane it would start, creating
	// nothing.
	Check bool
	// Remote reaches the fleet's other hosts; a fleet that names none
	// needs none.
	Remote *Remote
	// Waiting, when set, is called once by Down when, a second after it
	// asked every supervisor to stop, some still run — their agents are
	// finishing a turn, which takes up to a minute — with how many: a
	// person at a terminal is told why nothing seems to happen.
	Waiting func(agents int)
}

// SessionOption is the tmux session option Up sets on the session it
// creates: the fleet file's absolute path. Each of the fleet's supervisors
// carries the same mark in its environment (envvar.Fleet), so that Down
// acts only on what Up started. Up also passes the fleet's resume policy
// (its resume key) to each pane's supervisor in envvar.ResumePolicy: a
// fleet pane resumes without asking by default.
const SessionOption = "@superclaude_fleet"

// PaneCommand is the command a pane runs: superclaude with the pane's
// agent and arguments, as an argument vector that tmux executes directly,
// never through a shell.
func (s *Spec) PaneCommand(exe string, p Pane) []string {
	return s.paneCommand(exe, p, firstNonEmpty(p.Command, s.Command))
}

func (s *Spec) paneCommand(exe string, p Pane, agent string) []string {
	argv := []string{exe, "+run", "--profile", s.agent(p)}
	if agent != "" {
		argv = append(argv, "--agent", agent)
	}
	return append(append(argv, "--"), p.Args...)
}

// PaneEnv is a pane's environment on top of the tmux server's: the fleet's
// and the pane's own variables, the sessions directory, the pane's
// identity — given outright, so that a supervisor never reads the label
// before up has set it — and the fleet's mark.
func (s *Spec) PaneEnv(w Window, p Pane, extra []string) []string {
	m := map[string]string{}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	for k, v := range s.Env {
		m[k] = v
	}
	for k, v := range p.Env {
		m[k] = v
	}
	m[envvar.SessionsDir] = s.SessionsDir()
	m[envvar.PaneID] = s.PaneID(w, p)
	m[envvar.Fleet] = s.File
	if r := firstNonEmpty(p.Resume, s.Resume); r != "" {
		m[envvar.ResumePolicy] = r
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// ErrForeign reports a tmux session of the fleet's name that Up did not
// create for this fleet file.
var ErrForeign = errors.New("not this fleet's tmux session")

// owner checks that the tmux session name, which exists, was created by Up
// for the fleet file file ("" accepts any fleet file), and returns the
// file its mark names.
func owner(t tmux.Server, name, file string) (string, error) {
	mark, err := t.SessionOption(name, SessionOption)
	if err != nil {
		return "", err
	}
	switch {
	case mark == "":
		return "", fmt.Errorf("%w: tmux session %q was not started by superclaude +up, so superclaude leaves it alone (use another fleet name, or end that session yourself)", ErrForeign, name)
	case file != "" && mark != file:
		return "", fmt.Errorf("%w: tmux session %q is the fleet of %s, not of %s", ErrForeign, name, mark, file)
	}
	return mark, nil
}

// UpReport says what Up did.
type UpReport struct {
	// Started panes were started by this call; Running ones were left
	// alone, already running.
	Started, Running int
	// Worktrees lists the worktrees this call created.
	Worktrees []string
	// Hosts says what happened on each of the fleet's other hosts, in
	// the file's order.
	Hosts []HostUp
}

// Up brings the fleet up: it creates the fleet's tmux session, marked as
// the fleet's, with its windows and panes, each pane labelled with
// @pane_label and running one superclaude, whose supervisor finds its
// pane's session and resumes its conversation unless that overflowed (S3,
// S9). On a fleet that is up already it starts only the panes that are
// not running — dead, closed, or new in the file — and leaves live ones
// alone.
//
// Every pane is checked before anything is created (see plan). Up
// succeeds or fails as a whole: when something cannot be created it
// removes whatever this call created and says why. A fleet with parts on
// other hosts is checked on every host before anything is created on any
// (see upAcross).
func Up(s *Spec, o Options) (UpReport, error) {
	if hosts := s.Hosts(); len(hosts) > 0 {
		return upAcross(s, hosts, o)
	}
	return upHere(s, o)
}

// upHere brings up a fleet whose panes all run on this machine.
func upHere(s *Spec, o Options) (UpReport, error) {
	var rep UpReport
	exists := o.Tmux.HasSession(s.Name)
	var live []tmux.PaneInfo
	if exists {
		if _, err := owner(o.Tmux, s.Name, s.File); err != nil {
			return rep, err
		}
		var err error
		if live, err = o.Tmux.Panes(s.Name); err != nil {
			return rep, err
		}
	}
	u := &upRun{s: s, o: o, exists: exists, live: live, rep: &rep}
	panes, err := s.plan(o, func(w Window, p Pane) bool {
		if present := u.find(w.Name, p.Label); present != nil && !present.Dead {
			rep.Running++
			return false
		}
		return true
	})
	if err != nil || o.Check {
		return UpReport{}, err
	}
	if err := u.run(panes); err != nil {
		u.rollback()
		return UpReport{}, fmt.Errorf("%w (nothing of this +up is left)", err)
	}
	return rep, nil
}

// upRun is one Up's work, and what it created, for rollback.
type upRun struct {
	s      *Spec
	o      Options
	exists bool
	live   []tmux.PaneInfo
	rep    *UpReport

	createdSession, createdSessions bool
	started                         []string // pane ids started (created or respawned)
	worktrees                       []createdWorktree
	// sessionsBefore are the entries of the sessions directory before the
	// panes started: a rollback removes the session directories made
	// since by this fleet's panes.
	sessionsBefore map[string]bool
}

type createdWorktree struct {
	wt        *worktree
	newBranch bool
}

func (u *upRun) run(panes []planned) error {
	if _, err := os.Stat(u.s.SessionsDir()); errors.Is(err, fs.ErrNotExist) {
		u.createdSessions = true
	}
	if err := os.MkdirAll(u.s.SessionsDir(), 0o700); err != nil {
		return err
	}
	u.sessionsBefore = map[string]bool{}
	if names, err := os.ReadDir(u.s.SessionsDir()); err == nil {
		for _, e := range names {
			u.sessionsBefore[e.Name()] = true
		}
	}
	windowID := map[string]string{}
	for _, p := range u.live {
		if _, ok := windowID[p.Window]; !ok {
			windowID[p.Window] = p.WindowID
		}
	}
	touched := map[string]bool{}
	for _, pl := range panes {
		present := u.find(pl.w.Name, pl.p.Label) // nil, or a dead pane
		if pl.wt != nil {
			newBranch, err := pl.wt.create()
			if err != nil {
				return fmt.Errorf("window %q pane %q: %w", pl.w.Name, pl.p.Label, err)
			}
			if !pl.wt.registered {
				u.worktrees = append(u.worktrees, createdWorktree{pl.wt, newBranch})
				u.rep.Worktrees = append(u.rep.Worktrees, pl.wt.path)
			}
		}
		st := tmux.Start{Dir: pl.runDir, Env: pl.env, Argv: pl.argv}
		var p tmux.PaneInfo
		var err error
		switch {
		case present != nil:
			err = u.o.Tmux.Respawn(present.ID, st)
			p = *present
		case !u.exists:
			p, err = u.o.Tmux.NewSession(u.s.Name, pl.w.Name, st)
			if err == nil {
				u.exists, u.createdSession = true, true
				err = u.o.Tmux.SetSessionOption(u.s.Name, SessionOption, u.s.File)
			}
		case windowID[pl.w.Name] == "":
			p, err = u.o.Tmux.NewWindow(u.s.Name, pl.w.Name, st)
		default:
			p, err = u.o.Tmux.SplitWindow(windowID[pl.w.Name], st)
			if err != nil {
				return fmt.Errorf("window %q pane %q: %s", pl.w.Name, pl.p.Label, u.refused(windowID[pl.w.Name], err))
			}
		}
		if p.ID != "" {
			u.started = append(u.started, p.ID)
		}
		if err != nil {
			return fmt.Errorf("window %q pane %q: %w", pl.w.Name, pl.p.Label, err)
		}
		windowID[pl.w.Name] = p.WindowID
		touched[p.WindowID] = true
		// Tiled after every split, not once at the end: a split halves
		// the pane it splits, and without tiling the same pane was
		// halved again and again until tmux had no room for the seventh.
		u.o.Tmux.Run("select-layout", "-t", p.WindowID, "tiled")
		if _, err := u.o.Tmux.Run("set-option", "-p", "-t", p.ID, tmux.LabelOption, pl.p.Label); err != nil {
			return err
		}
		u.rep.Started++
	}
	if u.createdSession {
		// Each pane's border shows its label and, when its agent waits for
		// the user, that it does (tmux.StatusOption, set by its
		// supervisor).
		u.o.Tmux.SetSessionOption(u.s.Name, "pane-border-status", "top")
		u.o.Tmux.SetSessionOption(u.s.Name, "pane-border-format", tmux.BorderFormat)
	}
	for w := range touched {
		u.o.Tmux.Run("select-layout", "-t", w, "tiled")
		// A pane whose superclaude failed stays open to show why (tmux
		// 3.2 and later; older ones keep no pane, and Up starts it anew).
		u.o.Tmux.Run("set-option", "-w", "-t", w, "remain-on-exit", "failed")
	}
	return nil
}

// refused says what tmux refused when it would not split the window
// windowID: how many panes the window holds and how large it is, with
// tmux's own words.
func (u *upRun) refused(windowID string, err error) string {
	said := err.Error() // tmux's own words end it, after its command line
	if i := strings.LastIndex(said, ": "); i >= 0 {
		said = said[i+2:]
	}
	size, serr := u.o.Tmux.Run("display-message", "-p", "-t", windowID, "#{window_panes} #{window_width} #{window_height}")
	var panes, width, height int
	if serr != nil || func() bool { n, _ := fmt.Sscan(size, &panes, &width, &height); return n != 3 }() {
		return fmt.Sprintf("tmux refused to split the window for it: %s", said)
	}
	return fmt.Sprintf("tmux refused to split the window for it, which holds %d panes in %d×%d cells (%q); "+
		"put the panes in more windows", panes, width, height, said)
}

// find returns the pane of the running session with that window and
// label, a live one first.
func (u *upRun) find(window, label string) *tmux.PaneInfo {
	var found *tmux.PaneInfo
	for i, p := range u.live {
		if p.Window == window && p.Label == label && (found == nil || found.Dead) {
			found = &u.live[i]
		}
	}
	return found
}

// rollback removes what this Up created, newest first: its supervisors
// are stopped as Down stops them, its panes (or its session) go, then its
// worktrees — each only if it holds no work — and the sessions directory
// if it made it and nothing was written there.
func (u *upRun) rollback() {
	if len(u.started) > 0 {
		panes, _ := u.o.Tmux.Panes(u.s.Name)
		var ours []tmux.PaneInfo
		for _, p := range panes {
			if slices.Contains(u.started, p.ID) {
				ours = append(ours, p)
			}
		}
		if ids, err := fleetProcesses(u.s.File); err == nil {
			stopPanes(context.Background(), ours, ids, u.o.grace(), true, nil)
		}
		if u.createdSession {
			u.o.Tmux.Run("kill-session", "-t", tmux.SessionTarget(u.s.Name))
		} else {
			for _, id := range u.started {
				u.o.Tmux.Run("kill-pane", "-t", id)
			}
		}
	}
	for i := len(u.worktrees) - 1; i >= 0; i-- {
		c := u.worktrees[i]
		c.wt.remove(c.newBranch)
	}
	u.removeSessions()
}

// removeSessions removes, once the fleet's processes are gone, the session
// directories this Up's panes made: the whole sessions directory when Up
// made it, else each new directory whose session is one of this fleet's
// panes'. Sessions that were there before — a pane's conversation history
// from an earlier +up — are kept.
func (u *upRun) removeSessions() {
	if u.sessionsBefore == nil {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ids, err := fleetProcesses(u.s.File); err != nil || len(ids) == 0 {
			break
		}
	}
	dir := u.s.SessionsDir()
	parent, err := safefs.Open(filepath.Dir(dir), "")
	if err != nil {
		return
	}
	defer parent.Close()
	if u.createdSessions {
		parent.RemoveAll(filepath.Base(dir))
		return
	}
	sessions, err := parent.Child(filepath.Base(dir), false)
	if err != nil {
		return
	}
	defer sessions.Close()
	store, err := state.OpenExisting(dir)
	if err != nil {
		return
	}
	names, _ := sessions.Names()
	for _, name := range names {
		if u.sessionsBefore[name] || state.CheckName(name) != nil {
			continue
		}
		if st, err := store.Load(name); err == nil && strings.HasPrefix(st.FleetPaneID, u.s.Name+":") {
			sessions.RemoveAll(name)
		}
	}
}

func (o Options) grace() time.Duration {
	if o.Grace > 0 {
		return o.Grace
	}
	if o.Now {
		return 10 * time.Second
	}
	// A supervisor waits up to a minute for its agent's turn to end.
	return 75 * time.Second
}
