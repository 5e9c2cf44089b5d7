package fleet

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
)

// ErrNotUp reports that the fleet has no tmux session.
var ErrNotUp = errors.New("the fleet is not up")

// ErrInterrupted reports a Down whose context ended (Ctrl-C) before every
// supervisor had stopped: the DownReport says what is still up.
var ErrInterrupted = errors.New("+down was interrupted")

// DownReport says what Down did.
type DownReport struct {
	// Stopped supervisors stopped when asked; Killed ones outlived the
	// grace and were killed with their process trees.
	Stopped, Killed int
	// Foreign counts the live panes in the session that superclaude did
	// not start; when there are any the session is kept, with them.
	Foreign int
	// Running lists, after an interrupted Down, the panes (their labels,
	// else their ids) whose supervisor was still running: asked to stop,
	// they stop by themselves once their agent's turn ends, but the tmux
	// session stays until a +down finishes.
	Running []string
	// Asked is false when the interruption came before every supervisor
	// had been asked to stop.
	Asked bool
}

// Down stops the fleet named name, brought up from the fleet file file
// ("" for whichever file its mark names). It acts only on a tmux session
// that Up created and marked, and only on the processes it can verify as
// that fleet's supervisors: a pane's own process carrying the fleet's mark
// in its environment. Every such supervisor is asked to stop (last pane
// first) — each stops its agent gracefully and sweeps what the agent left
// — Down waits for all of them, kills any that outlive the grace together
// with their process trees, and then removes the session; or, when the
// session holds live panes of someone else's, only the fleet's panes.
//
// When ctx ends first (the person pressed Ctrl-C), Down stops waiting and
// returns ErrInterrupted with what is still running; it kills nothing and
// leaves the session. Running Down again finishes the job: the panes whose
// supervisor has gone are closed as dead ones, the others asked again.
func Down(ctx context.Context, name, file string, o Options) (DownReport, error) {
	var rep DownReport
	if !o.Tmux.HasSession(name) {
		return rep, errNotUpOn(name, o.Tmux)
	}
	mark, err := owner(o.Tmux, name, file)
	if err != nil {
		return rep, err
	}
	panes, err := o.Tmux.Panes(name)
	if err != nil {
		return rep, err
	}
	var ours []tmux.PaneInfo
	ourPanes := map[string]bool{}
	marked, err := fleetProcesses(mark)
	if err != nil {
		return rep, err
	}
	for _, p := range panes {
		_, isOurs := marked[p.PID]
		switch {
		case p.Dead:
			ourPanes[p.ID] = true // nothing runs there: a closed pane of the fleet's
		case isOurs:
			ours = append(ours, p)
			ourPanes[p.ID] = true
		default:
			rep.Foreign++
		}
	}
	var left []tmux.PaneInfo
	rep.Stopped, rep.Killed, left, rep.Asked = stopPanes(ctx, ours, marked, o.grace(), o.Now, o.Waiting)
	if len(left) > 0 {
		for _, p := range left {
			rep.Running = append(rep.Running, firstNonEmpty(p.Label, p.ID))
		}
		return rep, ErrInterrupted
	}
	if rep.Foreign == 0 {
		if _, err := o.Tmux.Run("kill-session", "-t", tmux.SessionTarget(name)); err != nil && o.Tmux.HasSession(name) {
			return rep, err
		}
		return rep, nil
	}
	for id := range ourPanes {
		o.Tmux.Run("kill-pane", "-t", id)
	}
	return rep, nil
}

// fleetProcesses returns, by PID, this user's processes whose environment
// carries the fleet's mark: its supervisors, and everything they started.
// Each identity (PID and start time) is fixed here, so that no signal
// reaches a process that took a PID over later.
func fleetProcesses(mark string) (map[int]proc.Identity, error) {
	list, err := proc.FindByEnv(envvar.Fleet, mark)
	if err != nil {
		return nil, err
	}
	ids := map[int]proc.Identity{}
	for _, p := range list {
		ids[p.PID] = p.Identity
	}
	return ids, nil
}

// stopPanes stops the supervisors running in panes whose process is one
// of the fleet's (ids, from fleetProcesses), last pane first: it asks each
// to stop over its control socket (SIGTERM when that fails), waits up to
// grace for all, and kills the process trees of any still running. It
// returns how many stopped and how many were killed. When ctx ends first
// it stops asking and waiting, kills nothing, and returns the panes whose
// supervisor still runs, and whether every one had been asked. waiting
// (when not nil) is told once, a second into the wait, how many still run.
func stopPanes(ctx context.Context, panes []tmux.PaneInfo, ids map[int]proc.Identity, grace time.Duration, now bool,
	waiting func(int)) (stopped, killed int, running []tmux.PaneInfo, asked bool) {
	type sup struct {
		id   proc.Identity
		pane tmux.PaneInfo
	}
	var sups []sup
	asked = true
	for i := len(panes) - 1; i >= 0; i-- {
		id, ok := ids[panes[i].PID]
		if panes[i].Dead || !ok {
			continue
		}
		sups = append(sups, sup{id, panes[i]})
		if ctx.Err() != nil {
			asked = false
			continue
		}
		if !askStop(ctx, id, now) {
			proc.Signal(id, syscall.SIGTERM)
		}
	}
	deadline, tell := time.Now().Add(grace), time.Now().Add(time.Second)
	for i, s := range sups {
		for proc.Alive(s.id) && time.Now().Before(deadline) && ctx.Err() == nil {
			if waiting != nil && time.Now().After(tell) {
				n := 0
				for _, rest := range sups[i:] {
					if proc.Alive(rest.id) {
						n++
					}
				}
				waiting(n)
				waiting = nil
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
		if ctx.Err() != nil {
			for _, rest := range sups[i:] {
				if proc.Alive(rest.id) {
					running = append(running, rest.pane)
				} else {
					stopped++
				}
			}
			return stopped, killed, running, asked
		}
		if proc.Alive(s.id) {
			proc.KillTree(context.Background(), s.id, proc.KillOptions{Grace: time.Second})
			killed++
		} else {
			stopped++
		}
	}
	return stopped, killed, nil, asked
}

// askStop asks the supervisor with identity id, over its control socket,
// to stop — once its agent has finished its turn, unless now; it reports
// whether the request was taken.
func askStop(ctx context.Context, id proc.Identity, now bool) bool {
	c, err := control.Dial(id)
	if err != nil {
		return false
	}
	// Two seconds each at most: a fleet has many supervisors, and one that
	// hangs is killed after the others.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return c.Stop(ctx, "", "fleet down", now) == nil
}

// Unfinished says, for the person, what an interrupted Down (rep, of the
// fleet name) left up and how to finish: again is the command that does.
func (rep DownReport) Unfinished(name, again string) string {
	who, panes := "1 supervisor of the fleet is", "pane"
	if n := len(rep.Running); n != 1 {
		who, panes = strconv.Itoa(n)+" supervisors of the fleet are", "panes"
	}
	asked := "each was asked to stop, and stops by itself once its agent's turn ends"
	if !rep.Asked {
		asked = "not every one was asked to stop yet"
	}
	return fmt.Sprintf("+down %s was interrupted: %s still running (%s %s); %s. The tmux session %s stays up until +down finishes.\nTo finish: %s   (add --now not to wait for the agents' turns)",
		name, who, panes, strings.Join(rep.Running, ", "), asked, name, again)
}
