package proc

import (
	"time"

	"golang.org/x/sys/unix"
)

// HasChildren reports whether the caller may have a child: on macOS, with
// no subreaper, what an agent leaves is found by its marker, not below
// the caller, so the answer is always yes and the caller looks.
func HasChildren() bool { return true }

// HasChildrenBut is HasChildren: on macOS the caller always looks.
func HasChildrenBut(keep func(pid int) bool) bool { return true }

// ReapOrphans collects every dead child of the calling process except
// those keep says belong to someone else (an exec.Cmd whose Wait must see
// the status). It returns the PIDs reaped.
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

// waitExit is not offered on macOS here: the caller polls.
func waitExit(Identity, time.Duration) (exited, ok bool) { return false, false }
