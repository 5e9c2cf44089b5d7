//go:build linux || darwin

package proc

import (
	"golang.org/x/sys/unix"
)

// FindByEnv returns the live processes of the calling user whose environment
// holds key=value. A supervisor puts a marker unique to itself in the
// agent's environment; every descendant inherits it, including those that
// left the tree by double-forking, so after the agent is gone the marker
// still finds them. Processes whose environment cannot be read are skipped.
func FindByEnv(key, value string) ([]Info, error) {
	marked, err := FindMarked(key)
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, m := range marked {
		if m.Value == value {
			out = append(out, m.Info)
		}
	}
	return out, nil
}

// Marked is a process that carries an environment marker, and the
// marker's value.
type Marked struct {
	Info
	Value string
}

// FindMarked returns the live processes of the calling user whose
// environment sets key, each with its value, the caller excepted, in the
// caller's PID namespace (a container's processes are left out: the PIDs
// in their markers are their namespace's). Only the
// caller's own user's processes are considered, whoever the caller is: an
// environment is anybody's to write, so a marker is evidence only on a
// process that could have inherited it from one of ours (root can read
// every process's environment, and would otherwise take another user's
// forged marker for its own).
func FindMarked(key string) ([]Marked, error) {
	snap, err := List()
	if err != nil {
		return nil, err
	}
	return FindMarkedIn(snap, key), nil
}

// FindMarkedIn is FindMarked over a snapshot of the process table the
// caller has taken already, so that one walk serves both.
func FindMarkedIn(snap []Info, key string) []Marked {
	prefix := key + "="
	self := unix.Getpid()
	uid := unix.Getuid()
	var out []Marked
	var parents map[int]int // made for the first marker in another namespace
	for _, p := range snap {
		if p.PID == self || p.Zombie {
			continue
		}
		if p.UID < 0 {
			p.UID = uidOf(p.PID)
		}
		if p.UID != uid {
			continue
		}
		if v, ok := envValue(p.PID, prefix); ok {
			// A marker in another PID namespace names a PID of that
			// namespace — not evidence here (inOwnPIDNamespace) —
			// unless it was carried there from this one.
			if inOwnPIDNamespace(p.PID) {
				out = append(out, Marked{Info: p, Value: v})
				continue
			}
			if parents == nil {
				parents = make(map[int]int, len(snap))
				for _, q := range snap {
					parents[q.PID] = q.PPID
				}
			}
			if carriedIn(parents, p.PID, prefix, v) {
				out = append(out, Marked{Info: p, Value: v})
			}
		}
	}
	return out
}

// carriedIn reports whether the marker (prefix, value v) of process pid,
// in another PID namespace than the caller's, was carried into that
// namespace from the caller's own: the outermost of its ancestors outside
// the caller's namespace — the first process of the namespace a process
// on this side made (a tool's `unshare --pid`, a sandbox) — carries the
// same marker, inherited, so the PID in it is this namespace's. Such a
// process, orphaned once its parent on this side exits, is otherwise seen
// by nothing: a dead supervisor's sweep left it running for ever. A
// container's first process (superclaude as PID 1, or the init in front
// of it) does not carry the marker it gives its own processes: those stay
// out, and so do those of a namespace nested in a container, whose
// outermost ancestor outside this namespace is the container's.
func carriedIn(parents map[int]int, pid int, prefix, v string) bool {
	top := pid
	for p, hops := parents[pid], 0; ; p, hops = parents[p], hops+1 {
		if p <= 0 || hops > 4096 {
			return false // no way back to this namespace
		}
		if inOwnPIDNamespace(p) {
			break
		}
		top = p
	}
	if top == pid {
		return true // the namespace's first process, carrying it
	}
	tv, ok := envValue(top, prefix)
	return ok && tv == v
}
