package proc

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

// ownPIDNamespace is the calling process's PID namespace, as
// /proc/self/ns/pid names it ("pid:[4026531836]"); "" when unreadable.
var ownPIDNamespace = sync.OnceValue(func() string {
	ns, _ := os.Readlink("/proc/self/ns/pid")
	return ns
})

// inOwnPIDNamespace reports whether process pid is in the caller's PID
// namespace. A process of a container (`docker run`, a pod, `unshare
// --pid`) is visible from the host, but the PIDs its environment names —
// a supervisor's marker, "1:…" for a supervisor that is its container's
// PID 1 — are its namespace's, not ours: read here they name some other
// process, and a supervisor alive in its container would look dead. When
// either namespace cannot be read, the answer is no: such a process is
// never taken for one of ours.
//
// The kernel says it in /proc/PID/status, which anyone may read: NSpid
// lists the process's PID in each namespace from the reader's down to
// its own, so one PID means the reader's namespace. (/proc/PID/ns/pid,
// compared with the caller's own, is the fallback for a kernel before
// 4.1; it cannot be read for every process — not PID 1's, in some
// sandboxes, even as root.)
func inOwnPIDNamespace(pid int) bool {
	var buf [2048]byte
	if b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/status", buf[:]); err == nil {
		for _, line := range bytes.Split(b, []byte("\n")) {
			if rest, ok := bytes.CutPrefix(line, []byte("NSpid:")); ok {
				return len(bytes.Fields(rest)) == 1
			}
		}
	}
	own := ownPIDNamespace()
	if own == "" {
		return false
	}
	ns, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid")
	return err == nil && ns == own
}
