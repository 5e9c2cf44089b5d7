package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// bootID is this boot's identity. It is read with readProcFile, not
// os.ReadFile: a /proc file is one the poller can wait on, so os.ReadFile
// registers it, and the first registration of a process starts the
// poller itself (epoll_create, an eventfd): work a status-line tick, whose
// first identity check reads this, did for nothing (issue 22).
var bootID = sync.OnceValue(func() string {
	var buf [64]byte
	b, err := readProcFile("/proc/sys/kernel/random/boot_id", buf[:])
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// bootComparable reports whether a recorded boot identity can be compared
// with bootID's: on Linux, always (/proc/sys/kernel/random/boot_id).
func bootComparable(string) bool { return true }

// stat reads /proc/<pid>/stat.
func stat(pid int) (Info, error) {
	var buf [512]byte
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH) {
			return Info{}, fmt.Errorf("pid %d: %w", pid, ErrGone)
		}
		return Info{}, err
	}
	info, err := parseStat(b)
	if err != nil {
		return Info{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	info.Boot = bootID()
	return info, nil
}

// parseStat reads the fields of /proc/<pid>/stat that identity needs. The
// command name (field 2) is in parentheses and may itself hold spaces and
// parentheses, so the fields are split after the last ')'.
func parseStat(b []byte) (Info, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Info{}, fmt.Errorf("no command name in %q", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return Info{}, fmt.Errorf("bad pid in %q", b)
	}
	// rest[0] is field 3 (state); field n is rest[n-3].
	rest := strings.Fields(string(b[end+1:]))
	if len(rest) < 20 {
		return Info{}, fmt.Errorf("only %d fields after the command name", len(rest))
	}
	num := func(field int) (int, error) { return strconv.Atoi(rest[field-3]) }
	ppid, err1 := num(4)
	pgid, err2 := num(5)
	sid, err3 := num(6)
	start, err4 := strconv.ParseUint(rest[22-3], 10, 64)
	for _, e := range []error{err1, err2, err3, err4} {
		if e != nil {
			return Info{}, e
		}
	}
	return Info{
		Identity: Identity{PID: pid, Start: start},
		PPID:     ppid,
		PGID:     pgid,
		SID:      sid,
		UID:      -1,
		Zombie:   rest[0] == "Z" || rest[0] == "X",
	}, nil
}

// List returns a snapshot of every process the caller can see.
func List() ([]Info, error) {
	names, err := procEntries()
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		info, err := stat(pid)
		if err != nil {
			continue // exited while we looked
		}
		out = append(out, info)
	}
	return out, nil
}

// StartedAt returns when the process id names started, by the wall clock,
// to within about 10 ms: Linux counts a start in clock ticks (USER_HZ,
// 100 a second on every architecture Go supports) since boot, suspend
// included, so it is taken back from now by CLOCK_BOOTTIME. A wall clock
// stepped since the start moves the answer with it. Zero when the clock
// cannot be read.
func StartedAt(id Identity) time.Time {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return time.Time{}
	}
	sinceStart := time.Duration(ts.Nano()) - time.Duration(id.Start)*10*time.Millisecond
	return time.Now().Add(-sinceStart)
}

// livePIDs lists the PIDs in /proc when n PIDs are to be looked up and
// that is many; listed is false when it did not list them. A process not
// listed had exited when the listing was made, and a PID that comes back
// later is another process, which its start time tells apart: the
// listing is as good as a lookup of each.
func livePIDs(n int) (present map[int]bool, listed bool) {
	if n < manyPIDs {
		return nil, false
	}
	names, err := procEntries()
	if err != nil {
		return nil, false
	}
	present = make(map[int]bool, len(names))
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil && pid > 0 {
			present[pid] = true
		}
	}
	return present, true
}

// procEntries lists /proc's entries.
func procEntries() ([]string, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}
