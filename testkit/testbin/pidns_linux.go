package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// UnsharePID returns the command line that starts a program as PID 1 of a
// new PID namespace with a /proc of its own, as a container runtime starts
// a container's first process: unshare(1), as root as it is, else in a user
// namespace of the test's own. Where neither works the test is skipped —
// and failed in CI, which runs as root: there it must run.
func UnsharePID(t testing.TB) (prefix []string, asRoot bool) {
	t.Helper()
	base := []string{"unshare", "--pid", "--fork", "--mount-proc", "--kill-child"}
	if os.Getuid() == 0 && exec.Command(base[0], append(base[1:], "true")...).Run() == nil {
		return base, true
	}
	user := append([]string{"unshare", "--user", "--map-root-user"}, base[1:]...)
	if exec.Command(user[0], append(user[1:], "true")...).Run() == nil {
		return user, false
	}
	if os.Getenv("CI") != "" {
		t.Fatal("unshare cannot make a PID namespace here, in CI")
	}
	t.Skip("unshare cannot make a PID namespace here (not root, and no user namespaces)")
	return nil, false
}

// Init is a program running as PID 1 of a PID namespace of its own, on a
// pty the test holds.
type Init struct {
	*PTY
	// PID is the program's PID outside its namespace, NS the namespace as
	// /proc/PID/ns/pid names it.
	PID int
	NS  string
}

// StartInit starts cmd on a new pty — unshare with UnsharePID's prefix,
// perhaps a setpriv that execs the program, then the program with its
// arguments — and returns once program (its base name) runs as PID 1 of
// its namespace. A program that has exited by then (an agent that failed
// at once) is returned as it is, unchecked.
func StartInit(t testing.TB, cmd *exec.Cmd, program string) *Init {
	t.Helper()
	p := StartPTY(t, cmd)
	r := &Init{PTY: p}
	deadline := time.Now().Add(20 * time.Second)
	var nspid string
	for {
		select {
		case <-p.Done():
			return r
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is not running as PID 1 of a namespace of its own (pid %d, %q); output:\n%s", program, r.PID, nspid, p.Output())
		}
		if r.PID == 0 {
			snap, _ := proc.List()
			for _, c := range snap {
				if c.PPID == cmd.Process.Pid {
					r.PID = c.PID
				}
			}
		}
		// Once setpriv or the like has exec'd the program: /proc/PID/
		// status's NSpid names its PID in each namespace, the outermost
		// first.
		if r.PID != 0 && Comm(r.PID) == program {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.PID))
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) > 0 && f[0] == "NSpid:" {
					nspid = line
				}
			}
			if f := strings.Fields(nspid); len(f) > 2 && f[len(f)-1] == "1" {
				ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", r.PID))
				if err != nil {
					t.Fatal(err)
				}
				r.NS = ns
				return r
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Inside lists the processes of the namespace.
func (r *Init) Inside() []proc.Info {
	snap, _ := proc.List()
	var out []proc.Info
	for _, p := range snap {
		if ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", p.PID)); err == nil && ns == r.NS {
			out = append(out, p)
		}
	}
	return out
}

// Comm is a process's command name, as the kernel keeps it (15 bytes at
// most).
func Comm(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}
