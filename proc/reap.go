//go:build linux || darwin

package proc

import (
	"strings"

	"golang.org/x/sys/unix"
)

// ReapOrphans collects every dead child of the calling process except those
// keep says belong to someone else (an exec.Cmd whose Wait must see the
// status). A child subreaper inherits the agent's orphans; without this they
// would stay zombies until the supervisor exits. It returns the PIDs reaped.
func ReapOrphans(keep func(pid int) bool) []int {
	snap, err := List()
	if err != nil {
		return nil
	}
	self := unix.Getpid()
	var reaped []int
	for _, p := range snap {
		if p.PPID != self || !p.Zombie || (keep != nil && keep(p.PID)) {
			continue
		}
		if ReapChild(p.PID) {
			reaped = append(reaped, p.PID)
		}
	}
	return reaped
}

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
	prefix := key + "="
	self := unix.Getpid()
	uid := unix.Getuid()
	var out []Marked
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
		env, err := environ(p.PID)
		if err != nil {
			continue
		}
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, prefix); ok {
				// A marker in another PID namespace names a PID of that
				// namespace: not evidence here (inOwnPIDNamespace).
				if inOwnPIDNamespace(p.PID) {
					out = append(out, Marked{Info: p, Value: v})
				}
				break
			}
		}
	}
	return out, nil
}
