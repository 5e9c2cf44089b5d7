//go:build linux || darwin

package proc

import (
	"context"
	"errors"
	"sort"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Descendants returns every process in snap below root (not root itself), by
// walking parent links, parents before their children. It is a pure function
// of the snapshot so that the walk can be tested on made-up tables.
//
// Walking parent links, not process groups or sessions, is the point: Claude
// Code puts each tool and hook child in a new session, so only the parent
// link still ties it to the agent.
func Descendants(snap []Info, root int) []Info {
	children := make(map[int][]Info, len(snap))
	for _, p := range snap {
		if p.PID == p.PPID { // never loop on a malformed entry
			continue
		}
		children[p.PPID] = append(children[p.PPID], p)
	}
	var out []Info
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		kids := children[pid]
		sort.Slice(kids, func(i, j int) bool { return kids[i].PID < kids[j].PID })
		for _, k := range kids {
			if seen[k.PID] {
				continue
			}
			seen[k.PID] = true
			out = append(out, k)
			queue = append(queue, k.PID)
		}
	}
	return out
}

// Subtrees returns the PIDs in snap of each of roots and of everything
// below it, counting a root only where snap holds a live process of that
// very identity (PID, start time, boot): a root whose PID another process
// holds now spares nothing.
// It is what a sweep leaves alone (watchdog.Watchdog.Spare), a pure
// function of the snapshot so that it can be tested on made-up tables.
func Subtrees(snap []Info, roots []Identity) map[int]bool {
	out := map[int]bool{}
	for _, r := range roots {
		if r.IsZero() {
			continue
		}
		for _, p := range snap {
			if p.PID != r.PID || p.Zombie || r.matches(p.Identity) != nil {
				continue
			}
			out[p.PID] = true
			for _, d := range Descendants(snap, p.PID) {
				out[d.PID] = true
			}
		}
	}
	return out
}

// Tree snapshots the process table and returns root's descendants.
func Tree(root int) ([]Info, error) {
	snap, err := List()
	if err != nil {
		return nil, err
	}
	return Descendants(snap, root), nil
}

// KillOptions tune [KillTree].
type KillOptions struct {
	// Grace is how long processes get after the first signal before
	// SIGKILL.
	Grace time.Duration
	// Signal is the first signal; SIGTERM when zero. A supervisor that was
	// itself sent SIGHUP or SIGINT passes that signal on.
	Signal syscall.Signal
	// RootFirst sends the first signal to the root alone and waits up to
	// the grace for it to exit, so an agent that ends its own children on
	// SIGTERM (Claude Code does) can do so; what is left then gets SIGTERM
	// and a short grace of its own before SIGKILL. Without RootFirst every
	// process gets the first signal at once.
	RootFirst bool
	// Also lists more processes to treat as part of the tree: a snapshot
	// taken before the root was signalled, or processes found by an
	// environment marker. Each is signalled only if its identity still
	// verifies.
	Also []Identity
	// SweptLater says the caller finds what the root leaves behind by
	// itself once the root has exited — a child subreaper, whose orphans
	// become its own children — so the process table is not walked for
	// the root's descendants while the root exits within its grace (with
	// RootFirst); only a root that outlives the grace has its tree walked
	// and killed.
	SweptLater bool
	// Reap is called with the PID of every process in the tree that is a
	// child of the caller once it is dead, so the caller can wait for it.
	// Leave it nil to use [ReapChild]. The caller's own exec.Cmd children
	// must be left out by the callback: their status belongs to Cmd.Wait.
	Reap func(pid int)
}

// MinSweepGrace is the least time the processes left behind by a root
// that exited get between SIGTERM and SIGKILL (see RootFirst).
const MinSweepGrace = 250 * time.Millisecond

// KillResult says what [KillTree] did.
type KillResult struct {
	// Termed and Killed list the processes that got SIGTERM and SIGKILL.
	Termed, Killed []Identity
	// Survivors lists processes still running when KillTree gave up, which
	// happens only when ctx ends first or a process cannot be signalled.
	Survivors []Identity
}

// KillTree ends root and every process below it: SIGTERM to each (and to
// root's process group when root leads one) — or to the root alone first,
// with opts.RootFirst — up to opts.Grace for them to go, then SIGKILL to
// whatever is left, including anything the tree started in the meantime. Every signal goes through [Signal], so a process that
// exited and whose PID was reused is never touched. It returns once every
// process in the tree is gone, or when ctx ends.
func KillTree(ctx context.Context, root Identity, opts KillOptions) (KillResult, error) {
	var res KillResult
	first := opts.Signal
	if first == 0 {
		first = unix.SIGTERM
	}
	var members []Identity
	var err error
	if opts.SweptLater && opts.RootFirst && !root.IsZero() {
		members = mergeIdentities([]Identity{root}, opts.Also)
	} else if members, err = treeOf(root, opts.Also); err != nil {
		return res, err
	}
	term := func(ids []Identity, sig syscall.Signal) {
		for _, id := range ids {
			if Signal(id, sig) == nil {
				res.Termed = append(res.Termed, id)
			}
		}
	}
	deadline := time.Now().Add(opts.Grace)
	if opts.RootFirst && !root.IsZero() {
		term([]Identity{root}, first)
		waitGone(ctx, []Identity{root}, opts.Grace)
		// Whatever the root left behind (and anything it started during
		// the grace) gets SIGTERM now and the rest of the grace — found
		// here unless the caller sweeps it once the root is gone.
		if !opts.SweptLater || Alive(root) {
			if later, err := treeOf(root, nil); err == nil {
				members = mergeIdentities(members, later)
			}
		}
		var rest []Identity
		for _, id := range members {
			if id != root {
				rest = append(rest, id)
			}
		}
		term(rest, unix.SIGTERM)
		waitGone(ctx, members, max(time.Until(deadline), MinSweepGrace))
	} else {
		term(members, first)
		signalGroup(root, first)
		waitGone(ctx, members, opts.Grace)
	}

	// Children started during the grace (a SessionEnd hook, say) are in
	// the tree now and were not in the first snapshot.
	if later, err := treeOf(root, nil); err == nil {
		members = mergeIdentities(members, later)
	}
	signalGroup(root, unix.SIGKILL)
	for _, id := range members {
		if Signal(id, unix.SIGKILL) == nil {
			res.Killed = append(res.Killed, id)
		}
	}
	waitGone(ctx, members, 5*time.Second)

	reap := opts.Reap
	if reap == nil {
		reap = func(pid int) { ReapChildWait(pid, 2*time.Second) }
	}
	self := unix.Getpid()
	for _, id := range members {
		if info, err := stat(id.PID); err == nil && info.PPID == self && info.Start == id.Start {
			if info.Zombie {
				reap(id.PID)
			}
		}
		if Alive(id) {
			res.Survivors = append(res.Survivors, id)
		}
	}
	if len(res.Survivors) > 0 {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, errors.New("processes survived SIGKILL")
	}
	return res, nil
}

// treeOf lists root (if alive), its descendants and the extra identities.
func treeOf(root Identity, also []Identity) ([]Identity, error) {
	var ids []Identity
	if !root.IsZero() && Alive(root) {
		ids = append(ids, root)
		desc, err := Tree(root.PID)
		if err != nil {
			return nil, err
		}
		for _, d := range desc {
			if !d.Zombie {
				ids = append(ids, d.Identity)
			}
		}
	}
	return mergeIdentities(ids, also), nil
}

func mergeIdentities(a, b []Identity) []Identity {
	seen := make(map[Identity]bool, len(a)+len(b))
	out := make([]Identity, 0, len(a)+len(b))
	for _, list := range [][]Identity{a, b} {
		for _, id := range list {
			key := Identity{PID: id.PID, Start: id.Start}
			if id.IsZero() || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, id)
		}
	}
	return out
}

// signalGroup signals root's process group when root still leads it. A
// group whose leader has gone is not signalled by number: its members are
// in the descendant walk and get their own verified signals.
func signalGroup(root Identity, sig syscall.Signal) {
	if root.IsZero() {
		return
	}
	info, err := stat(root.PID)
	if err != nil || info.Zombie || info.Start != root.Start || info.PGID != root.PID {
		return
	}
	_ = unix.Kill(-root.PID, sig)
}

// waitGone waits until none of ids is alive, up to d or until ctx ends:
// for one process and no context, woken by the kernel at its exit
// (waitExit); otherwise it polls with a growing interval. It runs only
// while a kill is in progress.
func waitGone(ctx context.Context, ids []Identity, d time.Duration) {
	if len(ids) == 1 && ctx.Done() == nil {
		// One process, a context that never ends (a kill is never
		// cancelled): the kernel says when it exits.
		if _, ok := waitExit(ids[0], d); ok {
			return
		}
	}
	deadline := time.Now().Add(d)
	interval := 2 * time.Millisecond
	for {
		alive := false
		for _, id := range ids {
			if Alive(id) {
				alive = true
				break
			}
		}
		if !alive || !time.Now().Before(deadline) {
			return
		}
		t := time.NewTimer(min(interval, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		interval = min(interval*2, 50*time.Millisecond)
	}
}

// ReapChildWait is ReapChild for a child known to be dying: it tries until
// the status is there or d has passed. A multi-threaded process shows as a
// zombie as soon as its main thread has exited, but cannot be reaped until
// every other thread has too, which takes a while on a busy machine.
func ReapChildWait(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if ReapChild(pid) {
			return true
		}
		if _, err := stat(pid); err != nil || time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ReapChild collects the exit status of pid, a dead child of the caller,
// without blocking. It reports whether a status was collected.
func ReapChild(pid int) bool {
	var ws unix.WaitStatus
	got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	return err == nil && got == pid
}
