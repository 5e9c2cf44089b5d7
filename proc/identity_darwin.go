package proc

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// bootID names this boot: kern.bootsessionuuid, a UUID the kernel makes
// at boot and keeps until the next. (kern.boottime, used before, is a
// wall-clock time: it moves when the clock is stepped — NTP after a sleep
// — and every live supervisor then looked dead to other processes:
// +status showed it dead, its pane could be claimed and verified kills
// refused to act.) Without it, Boot is empty and start times alone
// identify processes.
var bootID = sync.OnceValue(func() string {
	id, err := unix.Sysctl("kern.bootsessionuuid")
	if err != nil {
		return ""
	}
	return id
})

// bootComparable reports whether a recorded boot identity is of the kind
// bootID gives: identities recorded by an older superclaude hold the boot
// time in seconds, which cannot be compared with a UUID (and says nothing
// reliable anyway), so they are checked by start time alone.
func bootComparable(recorded string) bool {
	for _, c := range recorded {
		if c < '0' || c > '9' {
			return true
		}
	}
	return false
}

const szomb = 5 // SZOMB in <sys/proc.h>

func infoOf(kp *unix.KinfoProc) Info {
	tv := kp.Proc.P_starttime
	return Info{
		Identity: Identity{
			PID:   int(kp.Proc.P_pid),
			Start: uint64(tv.Sec)*1e6 + uint64(tv.Usec),
			Boot:  bootID(),
		},
		PPID:   int(kp.Eproc.Ppid),
		PGID:   int(kp.Eproc.Pgid),
		SID:    -1,
		UID:    int(kp.Eproc.Pcred.P_ruid),
		Zombie: kp.Proc.P_stat == szomb,
	}
}

// stat reads one process's kinfo_proc with sysctl kern.proc.pid.
func stat(pid int) (Info, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		// A PID nobody holds comes back as a short read (EIO).
		if kerr := unix.Kill(pid, 0); errors.Is(kerr, unix.ESRCH) {
			return Info{}, fmt.Errorf("pid %d: %w", pid, ErrGone)
		}
		return Info{}, fmt.Errorf("sysctl kern.proc.pid.%d: %w", pid, err)
	}
	if int(kp.Proc.P_pid) != pid {
		return Info{}, fmt.Errorf("pid %d: %w", pid, ErrGone)
	}
	return infoOf(kp), nil
}

// List returns a snapshot of every process, from sysctl kern.proc.all.
func List() ([]Info, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, fmt.Errorf("sysctl kern.proc.all: %w", err)
	}
	out := make([]Info, 0, len(kps))
	for i := range kps {
		out = append(out, infoOf(&kps[i]))
	}
	return out, nil
}

// StartedAt returns when the process id names started, by the wall clock:
// macOS records a start in microseconds since the Unix epoch.
func StartedAt(id Identity) time.Time { return time.UnixMicro(int64(id.Start)) }

// livePIDs does not list: macOS has no /proc, and its sysctl of every
// process costs more than a lookup of each.
func livePIDs(int) (map[int]bool, bool) { return nil, false }
