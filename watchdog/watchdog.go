// Package watchdog owns killing the agent from outside: a kill request
// becomes a signal to the agent (SIGTERM unless the request names another),
// a grace, SIGKILL, and then a sweep of every process the agent left behind.
//
// The kill has to come from outside the agent: the replaced scripts'
// session.sh tried to kill Claude from inside Claude's own Bash tool, and
// Claude survived it. Here the request only asks; the watchdog, a service of
// the supervisor beside the agent, does the killing, and only ever through
// start-time-verified identities (package proc), so a PID that was
// recycled after the agent exited is never touched (race R7).
//
// Finding what the agent left behind: Claude Code puts every tool, hook and
// status-line child in a session of its own, and after the agent dies they
// are orphans. On Linux the supervisor is a child subreaper, so orphans
// reparent to it and are found among its children; on macOS, and as a
// second net on Linux, every process carrying the marker the supervisor put
// in the agent's environment is found by [proc.FindByEnv].
package watchdog

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/proc"
)

// Request asks for the current agent to be killed.
type Request struct {
	// Reason is logged with the kill.
	Reason string
	// Signal is the first signal; SIGTERM when zero.
	Signal syscall.Signal
}

// Watchdog kills the agent on request. It is a suture service: Serve runs
// the requests, one at a time.
type Watchdog struct {
	// Grace is how long the agent gets after the first signal before
	// SIGKILL.
	Grace time.Duration
	// MarkerKey and MarkerValue are the environment entry the supervisor
	// gave the agent; every process carrying it belongs to this supervisor.
	MarkerKey, MarkerValue string
	// Log receives what the watchdog does.
	Log *slog.Logger
	// Subreaper says the supervisor is a child subreaper (Linux): every
	// process the agent leaves becomes its own child, so a kill and a
	// sweep find them below it — and, when it has no child at all, know
	// at once that nothing is left — instead of walking every process of
	// the machine and reading every environment for the marker.
	Subreaper bool
	// Spare, when set, names processes the sweep leaves alone with
	// everything below them, each only while a process of that very
	// identity runs (proc.Subtrees): the tmux servers of the fleets `+up`
	// brought up. A fleet's server detaches from the `+up` that started
	// it, and a `+up` run from the agent's Bash tool leaves it the
	// supervisor's child (its subreaper): it is no leftover of the agent.
	// It is asked only when the sweep has something to end.
	Spare func() []proc.Identity

	mu       sync.Mutex
	agent    proc.Identity
	requests chan Request
	// killing is held while a kill runs, so that the agent service can
	// wait for it to finish before it starts the next agent.
	killing sync.Mutex
}

// New returns a watchdog with the given grace and marker.
func New(grace time.Duration, markerKey, markerValue string, log *slog.Logger) *Watchdog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watchdog{Grace: grace, MarkerKey: markerKey, MarkerValue: markerValue, Log: log, requests: make(chan Request, 8)}
}

// String names the service to suture.
func (w *Watchdog) String() string { return "watchdog" }

// Watch names the agent that kill requests are for. The agent service calls
// it after each start.
func (w *Watchdog) Watch(id proc.Identity) {
	w.mu.Lock()
	w.agent = id
	w.mu.Unlock()
}

// Unwatch forgets the agent once it has exited; requests that arrive
// afterwards are dropped (the race between a normal exit and a restart
// request, R7, ends here harmlessly).
func (w *Watchdog) Unwatch() {
	w.mu.Lock()
	w.agent = proc.Identity{}
	w.mu.Unlock()
}

func (w *Watchdog) current() proc.Identity {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.agent
}

// Kill asks for the current agent to be killed. It does not wait. It
// reports false when no agent is running.
func (w *Watchdog) Kill(req Request) bool {
	if w.current().IsZero() {
		return false
	}
	select {
	case w.requests <- req:
	default: // a kill is already queued; one is enough
	}
	return true
}

// Serve runs kill requests until ctx ends. A kill under way when ctx ends
// is finished first: the process it was ending must not be left half
// killed.
func (w *Watchdog) Serve(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case req := <-w.requests:
			w.kill(context.WithoutCancel(ctx), req)
		}
	}
}

// KillNow kills the current agent and waits for it; the agent service uses
// it when the supervisor is shutting down and the queue is no longer
// served.
func (w *Watchdog) KillNow(ctx context.Context, req Request) {
	w.kill(ctx, req)
}

// WaitKills returns once no kill is running.
func (w *Watchdog) WaitKills() {
	w.killing.Lock()
	w.killing.Unlock()
}

func (w *Watchdog) kill(ctx context.Context, req Request) {
	w.killing.Lock()
	defer w.killing.Unlock()
	id := w.current()
	if id.IsZero() {
		w.Log.Info("kill request with no agent running", "reason", req.Reason)
		return
	}
	sig := req.Signal
	if sig == 0 {
		sig = unix.SIGTERM
	}
	// The tree as it is before the agent is signalled: once the agent
	// dies its children are orphans and its parent links are gone —
	// except below a subreaper, where they become its children and the
	// sweep after the agent's exit finds them.
	var also []proc.Identity
	if !w.Subreaper {
		also = w.marked()
		if desc, err := proc.Tree(id.PID); err == nil {
			for _, d := range desc {
				also = append(also, d.Identity)
			}
		}
	}
	w.Log.Info("killing agent", "pid", id.PID, "signal", unix.SignalName(sig), "grace", w.Grace, "reason", req.Reason)
	res, err := proc.KillTree(ctx, id, proc.KillOptions{
		Grace:      w.Grace,
		Signal:     sig,
		RootFirst:  true,
		SweptLater: w.Subreaper,
		Also:       also,
		Reap:       func(pid int) { w.reap(pid, id.PID) },
	})
	w.Log.Info("agent killed", "pid", id.PID, "termed", len(res.Termed), "killed", len(res.Killed), "survivors", len(res.Survivors), "err", err)
}

// reap waits for a dead child that is not the agent: the agent's status
// belongs to its exec.Cmd.
func (w *Watchdog) reap(pid, agent int) {
	if pid != agent {
		proc.ReapChildWait(pid, 2*time.Second)
	}
}

// marked lists the live processes carrying this supervisor's marker.
func (w *Watchdog) marked() []proc.Identity {
	if w.MarkerKey == "" {
		return nil
	}
	found, err := proc.FindByEnv(w.MarkerKey, w.MarkerValue)
	if err != nil {
		w.Log.Warn("finding marked processes", "err", err)
		return nil
	}
	ids := make([]proc.Identity, 0, len(found))
	for _, p := range found {
		ids = append(ids, p.Identity)
	}
	return ids
}

// SweepResult says what a sweep found and did.
type SweepResult struct {
	Found  int
	Killed int
}

// Sweep ends every process the last agent left behind: this supervisor's
// children other than keep (orphans adopted as subreaper) and every process
// carrying the marker, with their descendants, but for what Spare names.
// They get SIGTERM and a short grace, then SIGKILL. The agent service
// calls it after every agent exit, before it decides what to do next, so a
// new agent never starts beside the old one's leftovers.
//
// It walks the process table at most once, and not at all below a
// subreaper that has no child left but those keep claims (the usual case:
// the agent ended its own children; the session leader kept for the next
// agent is the caller's); the marker, a second net for processes outside the
// tree, is looked for only where no subreaper gathers them (macOS).
func (w *Watchdog) Sweep(ctx context.Context, keep func(pid int) bool) SweepResult {
	proc.ReapOrphans(keep)
	if w.Subreaper && !proc.HasChildrenBut(keep) {
		return SweepResult{}
	}
	var ids []proc.Identity
	self := unix.Getpid()
	snap, err := proc.List()
	if err == nil {
		for _, p := range snap {
			if p.PPID == self && !p.Zombie && (keep == nil || !keep(p.PID)) {
				ids = append(ids, p.Identity)
				for _, d := range proc.Descendants(snap, p.PID) {
					ids = append(ids, d.Identity)
				}
			}
		}
		if !w.Subreaper && w.MarkerKey != "" {
			for _, m := range proc.FindMarkedIn(snap, w.MarkerKey) {
				if m.Value != w.MarkerValue {
					continue
				}
				ids = append(ids, m.Identity)
				for _, d := range proc.Descendants(snap, m.PID) {
					ids = append(ids, d.Identity)
				}
			}
		}
	}
	if len(ids) > 0 && w.Spare != nil {
		if spared := proc.Subtrees(snap, w.Spare()); len(spared) > 0 {
			ids = slices.DeleteFunc(ids, func(id proc.Identity) bool { return spared[id.PID] })
		}
	}
	if len(ids) == 0 {
		return SweepResult{}
	}
	w.Log.Info("sweeping leftovers of the agent", "count", len(ids))
	res, kerr := proc.KillTree(ctx, proc.Identity{}, proc.KillOptions{
		Grace: min(w.Grace, time.Second),
		Also:  ids,
		Reap: func(pid int) {
			if keep == nil || !keep(pid) {
				proc.ReapChildWait(pid, 2*time.Second)
			}
		},
	})
	if kerr != nil {
		w.Log.Warn("sweep", "err", kerr, "survivors", len(res.Survivors))
	}
	return SweepResult{Found: len(ids), Killed: len(res.Termed)}
}
