package fleet

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
)

// ErrNotUp reports that the fleet has no tmux session.
var ErrNotUp = errors.New("the fleet is not up")

// DownReport says what Down did.
type DownReport struct {
	// Stopped supervisors stopped when asked; Killed ones outlived the
	// grace and were killed with their process trees.
	Stopped, Killed int
	// Foreign counts the live panes in the session that superclaude did
	// not start; when there are any the session is kept, with them.
	Foreign int
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
func Down(name, file string, o Options) (DownReport, error) {
	var rep DownReport
	if !o.Tmux.HasSession(name) {
		return rep, fmt.Errorf("%w: no tmux session %q", ErrNotUp, name)
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
	rep.Stopped, rep.Killed = stopPanes(ours, marked, o.grace(), o.Now)
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
	list, err := proc.FindByEnv(EnvFleet, mark)
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
// returns how many stopped and how many were killed.
func stopPanes(panes []tmux.PaneInfo, ids map[int]proc.Identity, grace time.Duration, now bool) (stopped, killed int) {
	var sups []proc.Identity
	for i := len(panes) - 1; i >= 0; i-- {
		id, ok := ids[panes[i].PID]
		if panes[i].Dead || !ok {
			continue
		}
		sups = append(sups, id)
		if !askStop(id, now) {
			proc.Signal(id, syscall.SIGTERM)
		}
	}
	deadline := time.Now().Add(grace)
	for _, id := range sups {
		for proc.Alive(id) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if proc.Alive(id) {
			proc.KillTree(context.Background(), id, proc.KillOptions{Grace: time.Second})
			killed++
		} else {
			stopped++
		}
	}
	return stopped, killed
}

// askStop asks the supervisor with identity id, over its control socket,
// to stop — once its agent has finished its turn, unless now; it reports
// whether the request was taken.
func askStop(id proc.Identity, now bool) bool {
	sock, err := control.FindSocket(id.PID)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = control.Call(ctx, sock, id, control.Request{Op: control.OpStop, Reason: "fleet down", Now: now})
	return err == nil
}
