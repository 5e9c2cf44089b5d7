package dashboard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// StoreConfig says where a [StoreSource] finds sessions and panes.
type StoreConfig struct {
	// IndexDir is the user's lookup index (config.IndexDir): every
	// sessions root it lists is read.
	IndexDir string
	// Roots are sessions roots read besides the index's (the current
	// directory's, the user's own), whether or not the index knows them.
	Roots []string
	// Only, when set, replaces the index's roots and Roots: just these.
	Only []string
	// Tmux are servers to look for a session's pane on besides the one
	// its supervisor runs in and the dashboard's own.
	Tmux []tmux.Server
	// Client is $TMUX of the dashboard: "socket,pid,session" when it runs
	// inside tmux, "" outside.
	Client string
	// ClientPane is $TMUX_PANE of the dashboard.
	ClientPane string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Ask asks the live owners of sessions whether they answer as
	// supervisors (control.Ask when nil).
	Ask func([]proc.Identity) []control.Answer
}

// StoreSource is the real [Source]: the state files of every sessions
// root of the user, their event logs, the supervisors' control sockets,
// and tmux.
type StoreSource struct {
	cfg    StoreConfig
	events *state.EventTail
	mu     sync.Mutex
}

// NewStoreSource returns the source c describes.
func NewStoreSource(c StoreConfig) *StoreSource {
	if c.Now == nil {
		c.Now = time.Now
	}
	return &StoreSource{cfg: c, events: state.NewEventTail()}
}

// roots lists the sessions roots to read, each once (sessions.Roots).
func (s *StoreSource) roots() []string {
	if len(s.cfg.Only) > 0 {
		return sessions.Roots("", s.cfg.Only...)
	}
	return sessions.Roots(s.cfg.IndexDir, s.cfg.Roots...)
}

// Rows reads every session of every root (sessions.Read, as +status
// reads them) and the latest event of each.
func (s *StoreSource) Rows(ctx context.Context) (Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := Snapshot{At: s.cfg.Now()}
	var stores []*state.Store
	for _, root := range s.roots() {
		if ctx.Err() != nil {
			return snap, ctx.Err()
		}
		store, err := state.OpenIn(root, s.cfg.IndexDir)
		if err != nil {
			snap.Problems = append(snap.Problems, err.Error())
			continue
		}
		store.Report = func(err error) { snap.Problems = append(snap.Problems, err.Error()) }
		stores = append(stores, store)
	}
	ask := s.cfg.Ask
	if ask == nil {
		ask = control.Ask
	}
	read := sessions.ReadAsking(stores, nil, snap.At, ask)
	snap.Problems = append(snap.Problems, read.Problems...)
	last := map[*state.Store]map[string]*state.Event{}
	for i, sess := range read.Sessions {
		evs, ok := last[sess.Store]
		if !ok {
			var err error
			if evs, err = s.events.Latest(sess.Store); err != nil {
				snap.Problems = append(snap.Problems, err.Error())
			}
			last[sess.Store] = evs
		}
		snap.Rows = append(snap.Rows, rowOf(sess, read.Views[i], evs[sess.Name]))
	}
	return snap, nil
}

// rowOf makes a session's row: v, what +status says of it, and ev, its
// latest event, if any.
func rowOf(sess state.Session, v cli.SessionView, ev *state.Event) Row {
	st := sess.State
	r := Row{
		Session: sess.Name, Dir: sess.Dir, Pane: v.Pane,
		Supervisor: state.Owner(st),
		Status:     Status(v.State),
		Skill:      v.Skill, Phase: v.Phase,
		Lifecycle: string(v.Lifecycle), Overflowed: v.Overflowed,
		Context: v.ContextUsage, Restarts: v.Restarts,
		Limit: v.Limit, LimitUntil: st.LimitedUntil, Halted: v.Halted,
		NoSupervisor: v.NoSupervisor,
	}
	if v.CostUSD > 0 {
		r.Cost = &v.CostUSD
	}
	if v.Agent != "" {
		r.NeedsInput = &v.NeedsInput
	}
	if ev != nil {
		r.LastEvent, r.LastEventAt = eventText(*ev), ev.Time
	}
	return r
}

// eventText is an event as +why words it (cli.Describe), without its time
// and actor, on one line.
func eventText(ev state.Event) string {
	return strings.Join(strings.Fields(cli.Describe(ev)), " ")
}

// Why reads the session's events from its root's log.
func (s *StoreSource) Why(ctx context.Context, r Row) ([]string, error) {
	store, err := state.OpenIn(filepath.Dir(r.Dir), s.cfg.IndexDir)
	if err != nil {
		return nil, err
	}
	evs, err := store.Events(r.Session)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(evs))
	for i, ev := range evs {
		lines[i] = cli.FormatEvent(ev)
	}
	return lines, nil
}

// Restart asks the session's supervisor, over its control socket, to
// restart the agent. The supervisor checks that it owns the session and
// decides when: an agent in the middle of a turn finishes it first, and
// the answer says so (waiting). This writes nothing.
func (s *StoreSource) Restart(ctx context.Context, r Row, fresh bool) (bool, error) {
	req := control.Restart{Session: r.Dir, Resume: !fresh,
		Reason: "a restart resuming the conversation, asked for from the dashboard"}
	if fresh {
		req.Reason = "a fresh start, asked for from the dashboard"
	}
	c, err := s.client(r)
	if err != nil {
		return false, err
	}
	ans, err := c.Restart(ctx, req)
	if err != nil {
		return false, fmt.Errorf("its supervisor (pid %d) did not take it: %w", c.Supervisor().PID, err)
	}
	return ans.Waiting, nil
}

// Stop asks the session's supervisor to stop its agent (once it has
// finished its turn) and exit.
func (s *StoreSource) Stop(ctx context.Context, r Row) error {
	c, err := s.client(r)
	if err != nil {
		return err
	}
	if err := c.Stop(ctx, r.Dir, "stop asked for from the dashboard", false); err != nil {
		return fmt.Errorf("its supervisor (pid %d) did not take it: %w", c.Supervisor().PID, err)
	}
	return nil
}

// client is the control client of the supervisor the row names, verified
// on the socket at every call: a request never reaches another process
// that took its PID.
func (s *StoreSource) client(r Row) (*control.Client, error) {
	if r.Supervisor.PID <= 0 {
		return nil, errors.New("the session has no supervisor")
	}
	c, err := control.Dial(r.Supervisor)
	if errors.Is(err, control.ErrNotRunning) {
		return nil, fmt.Errorf("its supervisor (pid %d) is not running", r.Supervisor.PID)
	}
	return c, err
}
