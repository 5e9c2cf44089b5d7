package sessions

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

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/prompts"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Named returns the store and name of a session given as the seeds give
// it: a bare name in the sessions directory, or a path to its directory.
func Named(s *state.Store, arg string) (*state.Store, string, error) {
	if !strings.ContainsAny(arg, `/\`) {
		return s, arg, state.CheckName(arg)
	}
	return s.At(arg)
}

// Find is `session find`: the session --session names, else the
// agent's own (state.Store.Mine: the one its supervisor activated last,
// else this pane's).
func Find(s *state.Store, which string) (*state.Session, error) {
	if which != "" {
		sess, err := FindNamed(s, which)
		if errors.Is(err, state.ErrNoSession) && !strings.ContainsRune(which, filepath.Separator) {
			// A bare name not in this directory's sessions: the user's
			// other sessions directories, as +status lists them, so that
			// `+session restart --session NAME` works from any shell.
			if stores, serr := ViewStores(""); serr == nil {
				if found, ferr := FindIn(stores, which); !errors.Is(ferr, state.ErrNoSession) {
					return found, ferr
				}
			}
		}
		if errors.Is(err, state.ErrNoSession) {
			return nil, UnknownSession(which)
		}
		return sess, err
	}
	sess, err := Mine(s)
	if errors.Is(err, state.ErrNotFound) {
		return nil, noSessionHere()
	}
	return sess, err
}

// FindNamed loads the session which (a name in s, or a session directory)
// names.
func FindNamed(s *state.Store, which string) (*state.Session, error) {
	store, name, err := Named(s, which)
	if err != nil {
		return nil, err
	}
	st, err := store.Load(name)
	if err != nil {
		return nil, err
	}
	return &state.Session{Name: name, Dir: filepath.Join(store.Root, name), State: st, Store: store}, nil
}

// ActivateTarget is where `+session activate DIR` creates or re-activates a
// session: a bare name in the sessions directory, or a path whose parent
// is the sessions directory or is itself named "sessions" — a project's
// own, as the seeds' skills name it (`sessions/X`). Any other path is
// refused: a session name never leads outside a sessions directory.
func ActivateTarget(s *state.Store, arg string) (*state.Store, string, error) {
	store, name, err := Named(s, arg)
	if err != nil {
		return nil, "", err
	}
	if store.Root == s.Root {
		return store, name, nil
	}
	if filepath.Base(store.Root) != "sessions" {
		return nil, "", fmt.Errorf("session directory %s is neither in the sessions directory %s nor in a directory named sessions", arg, s.Root)
	}
	// A project's sessions directory that is a link (a cloned repository
	// can ship sessions -> /elsewhere) would put state where the link
	// points; the sessions directory the user configured may be one.
	if fi, err := os.Lstat(store.Root); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, "", fmt.Errorf("session directory %s: %s is a symbolic link, which superclaude does not follow (name it in $%s to use it)",
			arg, store.Root, envvar.SessionsDir)
	}
	return store, name, nil
}

// ViewStores opens the sessions roots a view reads: dir, when given
// (--sessions, or the sessions directory of a fleet file), else every root
// of the user (the user's index knows them all, wherever the view runs).
func ViewStores(dir string) ([]*state.Store, error) {
	idx, err := config.IndexDir()
	if err != nil {
		return nil, err
	}
	report := func(err error) { fmt.Fprintln(os.Stderr, "superclaude: skipping:", termtext.Clean(err.Error())) }
	if dir != "" {
		s, err := state.OpenExistingIn(dir, idx)
		if errors.Is(err, fs.ErrNotExist) {
			// It said "no sessions directory: stat DIR: no such file or
			// directory".
			return nil, fmt.Errorf("there is no sessions directory %s", dir)
		}
		if err != nil {
			return nil, fmt.Errorf("no sessions directory: %w", err)
		}
		s.Report = report
		return []*state.Store{s}, nil
	}
	sessionsDir, err := config.SessionsDir()
	if err != nil {
		return nil, err
	}
	var out []*state.Store
	for _, root := range Roots(idx, sessionsDir) {
		if s, err := state.OpenExistingIn(root, idx); err == nil {
			s.Report = report
			out = append(out, s)
		}
	}
	return out, nil
}

// LocalViews are this machine's sessions in stores that keep keeps, as
// +status shows them (Read), what the reading stepped over said on
// stderr.
func LocalViews(stores []*state.Store, keep func(state.Session) bool) []cli.SessionView {
	snap := Read(stores, keep, time.Now())
	for _, p := range snap.Problems {
		fmt.Fprintln(os.Stderr, "superclaude:", p)
	}
	return snap.Views
}

// WhySession is the session +why reads: the one args names, in stores
// (ViewStores), or this agent's or this pane's.
func WhySession(stores []*state.Store, args []string) (*state.Session, error) {
	if len(args) == 0 {
		home, err := OpenStore("why")
		if err != nil {
			return nil, err
		}
		sess, err := Find(home, "")
		return sess, NameAsArgument(err, "+why")
	}
	sess, err := FindIn(stores, args[0])
	if errors.Is(err, state.ErrNoSession) {
		// A session removed (+session rm, prune) keeps its history in
		// its sessions directory's event log — named by its name, or by
		// its directory, as a name two directories shared had to be.
		var had []*state.Session
		var dirs []string
		for _, s := range stores {
			store, name, nerr := Named(s, args[0])
			dir := filepath.Join(store.Root, name)
			if nerr != nil || slices.Contains(dirs, dir) {
				continue
			}
			if evs, _ := store.Events(name); len(evs) > 0 {
				had = append(had, &state.Session{Name: name, Dir: dir, Store: store})
				dirs = append(dirs, dir)
			}
		}
		switch {
		case len(had) == 1:
			return had[0], nil
		case len(had) > 1:
			return nil, fmt.Errorf("there was a session %s in %d sessions directories (%s): name one by its directory",
				args[0], len(had), strings.Join(dirs, ", "))
		}
	}
	return sess, err
}

// FindIn finds the session which (a name or a directory) in stores. A name
// two sessions directories share is refused with both directories named:
// picking one silently would show, or restart, the wrong project's.
func FindIn(stores []*state.Store, which string) (*state.Session, error) {
	var found []*state.Session
	seen := map[string]bool{}
	for _, s := range stores {
		if sess, err := FindNamed(s, which); err == nil && !seen[sess.Dir] {
			seen[sess.Dir] = true
			found = append(found, sess)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, UnknownSession(which)
	}
	var dirs []string
	for _, sess := range found {
		dirs = append(dirs, sess.Dir)
	}
	return nil, fmt.Errorf("there is a session %s in %d sessions directories (%s): name one by its directory", which, len(found), strings.Join(dirs, ", "))
}

// HasControlSocket reports whether the supervisor with the given PID has a
// control socket (control.FindSocket).
func HasControlSocket(pid int) bool {
	_, err := control.FindSocket(pid)
	return err == nil
}

// Mine is the session of the agent this process runs under: the one answer
// of state.Store.Mine, for the supervisor and pane the environment names.
func Mine(s *state.Store) (*state.Session, error) {
	sup, err := config.Supervisor()
	return MineAs(s, sup, err)
}

// MineAs is Mine for a caller that has asked config.Supervisor already,
// with its answer (a status-line tick needs its supervisor for more than
// this): the supervisor is read and verified once.
func MineAs(s *state.Store, sup proc.Identity, supErr error) (*state.Session, error) {
	owner, err := config.OwnerOf(sup, supErr)
	pane, _ := config.PaneID(context.Background())
	if err == nil {
		// Found alive just now (config.OwnerOf).
		return s.MineLive(owner, pane)
	}
	return s.Mine(owner, pane)
}

// Conversations lists what `+history [which]` lists: the conversations of
// the session which names — looked for by name in every sessions
// directory of the user, as +why finds it (WhySession: a removed one by
// its history, a name two directories share refused with both named) —
// else of the pane which names, else — which empty — of this pane, or of
// this agent's session.
func Conversations(which string) ([]cli.Conversation, string, error) {
	s, err := OpenStore("history")
	if err != nil {
		return nil, "", err
	}
	var keep func(session, pane string) bool
	var what string
	asPane := false
	roots := Roots(s.Index().Dir, s.Root)
	switch {
	case which != "":
		stores, err := ViewStores("")
		if err != nil {
			return nil, "", err
		}
		if !slices.ContainsFunc(stores, func(v *state.Store) bool { return v.Root == s.Root }) {
			stores = append(stores, s) // this directory's, unknown to the index until written
		}
		sess, err := WhySession(stores, []string{which})
		switch {
		case err == nil:
			// Its own sessions directory's log only: another
			// directory's session of the same name is not it.
			name := sess.Name
			keep, what, roots = func(n, _ string) bool { return n == name }, "session "+name, []string{sess.Store.Root}
		case errors.Is(err, state.ErrNoSession):
			keep, what, asPane = func(_, pane string) bool { return pane == which }, "pane "+which, true
		default:
			return nil, "", err
		}
	default:
		if pane, _ := config.PaneID(context.Background()); pane != "" {
			keep, what = func(_, p string) bool { return p == pane }, "this pane ("+pane+")"
		} else if sess, err := Mine(s); err == nil {
			keep, what = func(n, _ string) bool { return n == sess.Name }, "session "+sess.Name
		} else {
			return nil, "", errors.New("this shell runs in no tmux pane and under no superclaude, so no conversation is its own: " +
				"name a session or a pane: superclaude +history NAME (superclaude +status lists them)")
		}
	}
	var evs []state.Event
	for _, root := range roots {
		rs, _ := state.Open(root)
		e, err := rs.Events("")
		if err == nil {
			evs = append(evs, e...)
		}
	}
	if asPane && !slices.ContainsFunc(evs, func(ev state.Event) bool { return ev.Detail["pane"] == which }) {
		return nil, "", UnknownSessionOrPane(which)
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Time.Before(evs[j].Time) })
	cs := cli.History(evs, keep)
	for i := range cs {
		fillPrompts(&cs[i])
	}
	return cs, what, nil
}

// fillPrompts fills in c's first and last prompt from the file its agent's
// CLI keeps the conversation in: Claude Code's transcript, Codex's rollout,
// Gemini CLI's chat file. When that file is not known or cannot be read,
// or the agent's is none superclaude reads, the prompts are unknown.
func fillPrompts(c *cli.Conversation) {
	var ps []string
	var err error
	switch c.Agent {
	case cli.ClaudeAgent:
		if c.Transcript == "" {
			c.PromptsUnknown = true
			return
		}
		// The first prompt from the transcript's start, the last from
		// its end (ReadTranscript reads only that).
		first, ferr := claude.FirstPrompt(c.Transcript)
		h, herr := claude.ReadTranscript(c.Transcript)
		if ferr != nil && herr != nil {
			c.PromptsUnknown = true
			return
		}
		c.FirstPrompt = first
		if herr == nil && len(h.Prompts) > 0 {
			c.LastPrompt = h.Prompts[len(h.Prompts)-1]
		}
		return
	case "codex":
		ps, err = prompts.Codex(c.Transcript)
	case "gemini":
		ps, err = prompts.Gemini(c.Transcript)
	default:
		err = fmt.Errorf("superclaude does not read %s's conversations", c.Agent)
	}
	if err != nil {
		c.PromptsUnknown = true
		return
	}
	if len(ps) > 0 {
		c.FirstPrompt, c.LastPrompt = ps[0], ps[len(ps)-1]
	}
}

// NoSessionHere reports that a command that acts on "this" session found
// none: Why says why, in words, and Name how to name one — --session NAME,
// unless the command takes the session otherwise (+session show NAME).
// (It used to say "no session for this supervisor (pid N) or pane ("")",
// where pid N was the calling shell.)
type NoSessionHere struct{ Why, Name string }

func (e *NoSessionHere) Error() string { return e.Why + ": " + e.Name }

// noSessionHere is the NoSessionHere of this process.
func noSessionHere() error {
	e := &NoSessionHere{Name: "name one with --session NAME (superclaude +status lists them)"}
	pane, _ := config.PaneID(context.Background())
	if _, err := config.Supervisor(); err == nil {
		e.Why = "the agent this shell runs under has no session yet (superclaude makes one once the agent has started; a skill activates one with +session activate)"
	} else if pane != "" {
		e.Why = fmt.Sprintf("this tmux pane (%s) has no session, and this shell runs under no superclaude", tmux.Short(pane))
	} else {
		e.Why = "this shell runs under no superclaude and in no tmux pane, so no session is its own"
	}
	return e
}

// NameAsArgument has err, when it is a NoSessionHere, tell the person to
// name the session as cmd's argument, as the commands that take it so
// (+why, +session show) do, rather than by --session, which they lack.
func NameAsArgument(err error, cmd string) error {
	if nh := (*NoSessionHere)(nil); errors.As(err, &nh) {
		nh.Name = "name one: superclaude " + cmd + " NAME (superclaude +status lists them)"
	}
	return err
}

// UnknownSession reports that no session of the person's has the name, or
// the directory, they gave. It is state.ErrNoSession (errors.Is), which
// callers test for; its words say only what the person needs: it used to
// read "no session X in 0 sessions directories: no such session".
type UnknownSession string

func (e UnknownSession) Error() string {
	return fmt.Sprintf("there is no session %s (superclaude +status lists yours)", string(e))
}

// Is makes an UnknownSession a state.ErrNoSession.
func (e UnknownSession) Is(target error) bool { return target == state.ErrNoSession }

// UnknownSessionOrPane reports that a name given to +history or +resume
// is neither a session's nor a pane's that superclaude ever ran an agent
// in (issue 19: it read "pane nosuch has had no conversation"). It is
// state.ErrNoSession (errors.Is), as UnknownSession is.
type UnknownSessionOrPane string

func (e UnknownSessionOrPane) Error() string {
	return fmt.Sprintf("there is no session or pane %s (superclaude +status lists the sessions and their panes)", string(e))
}

// Is makes an UnknownSessionOrPane a state.ErrNoSession.
func (e UnknownSessionOrPane) Is(target error) bool { return target == state.ErrNoSession }

// NoConversation says that what (a session or a pane, as Conversations
// names it) has no conversation n, when it has had have.
func NoConversation(what string, n, have int) error {
	if have == 0 {
		return fmt.Errorf("%s has had no conversation under superclaude (superclaude +status lists the sessions and their panes)", what)
	}
	return fmt.Errorf("%s has had %s (superclaude +history lists them): there is no %d", what, cli.Plural(have, "conversation", "conversations"), n)
}
