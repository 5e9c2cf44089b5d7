package proc

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A child's exit, as waitid(2) reports it without collecting it
// (WNOWAIT). siginfo_t's fields for SIGCHLD begin after three ints, and
// on 64-bit systems a fourth of padding; si_pid comes first.
const siginfoPIDOffset = 3*4 + (unsafe.Sizeof(uintptr(0))-4)/4*4

// peekExited returns the PID of a child of the caller that has exited and
// waits to be reaped, without reaping it: 0 when there is none, and ok
// false when the caller has no children at all.
func peekExited() (pid int, ok bool) {
	var info [128]byte
	for {
		_, _, errno := unix.Syscall6(unix.SYS_WAITID, unix.P_ALL, 0, uintptr(unsafe.Pointer(&info[0])),
			unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return int(*(*int32)(unsafe.Pointer(&info[siginfoPIDOffset]))), true
		case unix.EINTR:
			continue
		}
		return 0, false
	}
}

// HasChildren reports whether the caller has any child, running or
// exited, in one system call. A child subreaper with none has no
// descendants at all — every orphan below it would be its child — so
// there is nothing of an agent's left to find, and no process table to
// walk.
func HasChildren() bool {
	_, ok := peekExited()
	return ok
}

// HasChildrenBut reports whether the caller has a child that keep does not
// claim (one whose exit status someone else waits for: the session leader
// a terminal keeps between agents). Each thread's children are listed in
// /proc/self/task/TID/children (Linux 3.5, CONFIG_PROC_CHILDREN): a few
// small reads, however many processes the machine runs. Where those
// cannot be read it is HasChildren, which counts the kept ones too.
func HasChildrenBut(keep func(pid int) bool) bool {
	if !HasChildren() {
		return false
	}
	if keep == nil {
		return true
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return true
	}
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if _, serr := os.Stat("/proc/self/task/" + t.Name()); serr != nil {
					continue // the thread ended meanwhile
				}
			}
			return true
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err != nil || !keep(pid) {
				return true
			}
		}
	}
	return false
}

// ReapOrphans collects the exit status of the caller's exited children,
// except those keep says belong to someone else (an exec.Cmd whose Wait
// must see the status), and returns the PIDs reaped. A child subreaper
// inherits the agent's orphans; without this they would stay zombies
// until the supervisor exits. It asks the kernel which child has exited
// (waitid without collecting, then wait4 of that one) instead of walking
// the process table: a SIGCHLD costs a few system calls however many
// processes the machine runs. A kept child that has exited stops the
// round (the kernel would name it again); its owner reaps it, and the
// next round, or the sweep after the agent, collects the rest.
func ReapOrphans(keep func(pid int) bool) []int {
	var reaped []int
	for {
		pid, ok := peekExited()
		if !ok || pid <= 0 || (keep != nil && keep(pid)) {
			return reaped
		}
		if !ReapChild(pid) {
			return reaped
		}
		reaped = append(reaped, pid)
	}
}

// waitExit waits up to d for the process id names to exit, woken by the
// kernel (a pidfd becomes readable when its process exits), and reports
// whether it has. ok is false when it cannot wait this way (no pidfd on
// this kernel); the caller then polls.
func waitExit(id Identity, d time.Duration) (exited, ok bool) {
	fd, err := unix.PidfdOpen(id.PID, 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return true, true
		}
		return false, false
	}
	defer unix.Close(fd)
	if !Alive(id) { // the PID may name another process by now
		return true, true
	}
	deadline := time.Now().Add(d)
	for {
		ms := int(time.Until(deadline).Milliseconds())
		if ms < 0 {
			ms = 0
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, false
		}
		if n > 0 || !Alive(id) {
			return true, true
		}
		if ms == 0 {
			return false, true
		}
	}
}
