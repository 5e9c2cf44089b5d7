//go:build linux || darwin

package proc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Identity names one process for its whole life: the PID it holds, when it
// started and in which boot. Two processes never share an Identity, even
// when the kernel gives the second one the first one's PID.
//
// Start is in the operating system's own unit: clock ticks since boot on
// Linux (field 22 of /proc/<pid>/stat, the value Claude Code itself records
// as procStart), microseconds since the Unix epoch on macOS. Only equality
// is ever asked of it.
type Identity struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	Boot  string `json:"boot,omitempty"`
}

var (
	// ErrGone reports that no process holds the identity's PID any more,
	// or that the one holding it has exited and is waiting to be reaped.
	ErrGone = errors.New("process has exited")
	// ErrReused reports that the PID is held by a different process than
	// the one the identity names: it started at another time or in
	// another boot.
	ErrReused = errors.New("pid now belongs to a different process")
)

// IsZero reports whether id names no process.
func (id Identity) IsZero() bool { return id.PID <= 0 }

// String renders id as "pid:start:boot", the form [Parse] reads and the
// form superclaude passes to the agent in its environment.
func (id Identity) String() string {
	return fmt.Sprintf("%d:%d:%s", id.PID, id.Start, id.Boot)
}

// Parse reads the form [Identity.String] writes. The boot part may be
// empty.
func Parse(s string) (Identity, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) < 2 {
		return Identity{}, fmt.Errorf("process identity %q: want pid:start[:boot]", s)
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return Identity{}, fmt.Errorf("process identity %q: bad pid", s)
	}
	start, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil {
		return Identity{}, fmt.Errorf("process identity %q: bad start time", s)
	}
	id := Identity{PID: pid, Start: start}
	if len(parts) == 3 {
		id.Boot = parts[2]
	}
	return id, nil
}

// Self returns the identity of the calling process.
func Self() (Identity, error) { return Of(unix.Getpid()) }

// Of returns the identity of the process that holds pid now. A process that
// has exited but not been reaped (a zombie) is reported as [ErrGone].
func Of(pid int) (Identity, error) {
	info, err := stat(pid)
	if err != nil {
		return Identity{}, err
	}
	if info.Zombie {
		return Identity{}, fmt.Errorf("pid %d: %w", pid, ErrGone)
	}
	return info.Identity, nil
}

// Parent returns the PID of pid's parent, from the one process's own
// record (no walk of the process table).
func Parent(pid int) (int, error) {
	info, err := stat(pid)
	if err != nil {
		return 0, err
	}
	return info.PPID, nil
}

// Verify returns nil when the process id names is running now, [ErrGone]
// when it has exited, and [ErrReused] when its PID belongs to another
// process.
func (id Identity) Verify() error {
	if id.IsZero() {
		return fmt.Errorf("pid %d: %w", id.PID, ErrGone)
	}
	live, err := Of(id.PID)
	if err != nil {
		return err
	}
	return id.matches(live)
}

func (id Identity) matches(live Identity) error {
	if live.Start != id.Start || (id.Boot != "" && live.Boot != "" && bootComparable(id.Boot) && live.Boot != id.Boot) {
		return fmt.Errorf("pid %d started at %d, not %d: %w", id.PID, live.Start, id.Start, ErrReused)
	}
	return nil
}

// Alive reports whether the process id names is still running.
func Alive(id Identity) bool { return id.Verify() == nil }

// PIDAlive reports whether any process holds pid, for state written by tools
// that recorded no start time. It cannot tell a recycled PID from the
// original; prefer [Alive].
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	info, err := stat(pid)
	return err == nil && !info.Zombie
}

// Signal sends sig to the process id names, and refuses with [ErrReused] or
// [ErrGone] when that process is no longer the one holding the PID.
func Signal(id Identity, sig syscall.Signal) error {
	if id.IsZero() {
		return fmt.Errorf("pid %d: %w", id.PID, ErrGone)
	}
	return sendSignal(id, sig)
}

// Info is what one snapshot of the process table says of one process.
type Info struct {
	Identity
	PPID   int
	PGID   int
	SID    int
	UID    int
	Zombie bool
}

// gone maps the errors of kill(2) and friends onto ErrGone.
func gone(pid int, err error) error {
	if errors.Is(err, unix.ESRCH) {
		return fmt.Errorf("pid %d: %w", pid, ErrGone)
	}
	return err
}
