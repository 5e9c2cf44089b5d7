package dashboard

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/state"
)

// The dashboard of a user whose fleets run on other hosts too shows their
// sessions beside this machine's, with a HOST column. Each host runs the
// same StoreSource over its own sessions, as `superclaude +remote` over
// ssh (internal/remote), and answers these ops; what the person does to a
// host's row — restart, stop, why, attach — is done there by that host's
// StoreSource, with the same checks as here.
const (
	OpRows    = "dashboard-rows"
	OpRestart = "dashboard-restart"
	OpStop    = "dashboard-stop"
	OpWhy     = "dashboard-why"
	OpAttach  = "dashboard-attach"
)

// Hosts says how a dashboard reaches the user's other hosts.
type Hosts struct {
	// Hosts are the ssh destinations to show besides this machine.
	Hosts []string
	// Call makes one request of a host (a remote.Client's Call).
	Call func(ctx context.Context, host, op string, args, result any) error
	// Terminal returns the command that runs argv on host with a
	// terminal (ssh -t), for attaching to a pane there.
	Terminal func(host string, argv []string) (*exec.Cmd, error)
	// Record keeps each host's last good answer.
	Record remote.Hosts
	// Timeout bounds one reading of one host (DefaultRefresh when 0).
	Timeout time.Duration
}

// HostsSource is a Source of this machine's sessions (Local) and those of
// other hosts. A host is never waited for: each reading starts, for every
// host not already being read, a reading in the background, and shows
// what each host said last. So a host that does not answer costs a
// refresh nothing, and shows as unreachable, with the time of its last
// good answer, from the refresh after its reading failed.
type HostsSource struct {
	Local Source
	Hosts

	mu    sync.Mutex
	state map[string]*hostState
}

type hostState struct {
	busy     bool // a reading is under way
	answered bool // a reading ended
	snap     Snapshot
	err      error
	lastGood time.Time
}

// Rows reads this machine's sessions, starts a reading of every host not
// being read, and adds what each host said last.
func (h *HostsSource) Rows(ctx context.Context) (Snapshot, error) {
	snap, err := h.Local.Rows(ctx)
	snap.Hosts = h.Hosts.Hosts
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == nil {
		h.state = map[string]*hostState{}
	}
	for _, host := range h.Hosts.Hosts {
		st := h.state[host]
		if st == nil {
			st = &hostState{lastGood: h.Record.Get(host).LastGood}
			h.state[host] = st
		}
		if !st.busy {
			st.busy = true
			go h.read(host, st)
		}
		switch {
		case !st.answered:
			// Its first reading is under way: its rows come with the
			// next refresh.
		case st.err != nil:
			snap.Unreachable = append(snap.Unreachable, unreachable(host, st.err, st.lastGood, snap.At))
		default:
			for _, r := range st.snap.Rows {
				r.Host = host
				snap.Rows = append(snap.Rows, r)
			}
			for _, p := range st.snap.Problems {
				snap.Problems = append(snap.Problems, host+": "+p)
			}
		}
	}
	return snap, err
}

// unreachable is the line of a host that did not answer.
func unreachable(host string, err error, lastGood, now time.Time) string {
	last := "it never answered"
	if !lastGood.IsZero() {
		last = fmt.Sprintf("last good answer %s (%s)", lastGood.Local().Format("15:04:05"), cli.Age(state.FormatTime(lastGood), now))
	}
	return fmt.Sprintf("%s: UNREACHABLE — %s: %s", host, last, cli.HostError(host, err))
}

// read reads one host's rows, in the background.
func (h *HostsSource) read(host string, st *hostState) {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultRefresh
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var snap Snapshot
	err := h.Call(ctx, host, OpRows, nil, &snap)
	at := time.Now()
	if h.Record.File != "" {
		h.Record.Answered(host, at, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	st.busy, st.answered, st.err = false, true, err
	if err == nil {
		st.snap, st.lastGood = snap, at
	}
}

// rowArgs is the row an action on a host is about.
type rowArgs struct {
	Row Row `json:"row"`
	// Fresh: a restart with a fresh context, not resuming.
	Fresh bool `json:"fresh,omitempty"`
}

// Restart restarts the agent of a row of this machine's or of its host's.
func (h *HostsSource) Restart(ctx context.Context, r Row, fresh bool) (bool, error) {
	if r.Host == "" {
		return h.Local.Restart(ctx, r, fresh)
	}
	var waiting bool
	err := h.Call(ctx, r.Host, OpRestart, rowArgs{Row: r, Fresh: fresh}, &waiting)
	return waiting, err
}

// Stop stops the agent of a row, here or on its host.
func (h *HostsSource) Stop(ctx context.Context, r Row) error {
	if r.Host == "" {
		return h.Local.Stop(ctx, r)
	}
	return h.Call(ctx, r.Host, OpStop, rowArgs{Row: r}, nil)
}

// Why reads the event log of a row's session, here or on its host.
func (h *HostsSource) Why(ctx context.Context, r Row) ([]string, error) {
	if r.Host == "" {
		return h.Local.Why(ctx, r)
	}
	var lines []string
	err := h.Call(ctx, r.Host, OpWhy, rowArgs{Row: r}, &lines)
	return lines, err
}

// Attach shows a row's pane: on its host, the tmux client that host's
// StoreSource would run, run there over ssh with a terminal.
func (h *HostsSource) Attach(ctx context.Context, r Row) (*exec.Cmd, error) {
	if r.Host == "" {
		return h.Local.Attach(ctx, r)
	}
	var argv []string
	if err := h.Call(ctx, r.Host, OpAttach, rowArgs{Row: r}, &argv); err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New(r.Host + ": no tmux client to run there")
	}
	return h.Terminal(r.Host, argv)
}

// HostOps are the ops a host answers for another's dashboard, with src
// over the host's own sessions. An action names a row as the asking
// dashboard read it; it is done to the row of that directory as src
// reads it now.
func HostOps(src *StoreSource) map[string]remote.Handler {
	find := func(ctx context.Context, a rowArgs) (Row, error) {
		snap, err := src.Rows(ctx)
		if err != nil {
			return Row{}, err
		}
		for _, r := range snap.Rows {
			if r.Dir == a.Row.Dir {
				return r, nil
			}
		}
		return Row{}, fmt.Errorf("no session %s here any more", a.Row.Dir)
	}
	// on is an action on the row a names, as src reads it now.
	on := func(do func(context.Context, Row, rowArgs) (any, error)) remote.Handler {
		return remote.Op(func(ctx context.Context, a rowArgs) (any, error) {
			r, err := find(ctx, a)
			if err != nil {
				return nil, err
			}
			return do(ctx, r, a)
		})
	}
	return map[string]remote.Handler{
		OpRows:    remote.Op(func(ctx context.Context, _ struct{}) (Snapshot, error) { return src.Rows(ctx) }),
		OpRestart: on(func(ctx context.Context, r Row, a rowArgs) (any, error) { return src.Restart(ctx, r, a.Fresh) }),
		OpStop:    on(func(ctx context.Context, r Row, _ rowArgs) (any, error) { return true, src.Stop(ctx, r) }),
		OpWhy:     on(func(ctx context.Context, r Row, _ rowArgs) (any, error) { return src.Why(ctx, r) }),
		OpAttach: on(func(ctx context.Context, r Row, _ rowArgs) (any, error) {
			cmd, err := src.Attach(ctx, r)
			if err != nil {
				return nil, err
			}
			if cmd == nil {
				return nil, errors.New("no tmux client to run")
			}
			return cmd.Args, nil
		}),
	}
}
