package handover

import (
	"os"
	"sync/atomic"
	"syscall"
)

// Run is a print-mode run this package ran before main and left for main
// to finish: the agent has exited, and something it started may still run.
type Run struct {
	// Status is the agent's wait status.
	Status syscall.WaitStatus
	// Marker is the value of SUPERCLAUDE_SUPERVISOR in the agent's
	// environment, this process's identity: the sweep looks for it.
	Marker string
	// Args are the agent's arguments, for the log.
	Args []string
}

// ran is the run runPrint left for main.
var ran *Run

// Ran returns the print-mode run this package ran and left for main to
// sweep after, or nil. Main must sweep, then exit with ExitCode(Status)
// (after DieBy for a signal): the agent must not run again.
func Ran() *Run { return ran }

// ExitCode ends the program as the agent ended where it died by a signal
// we can die by (DieBy), and otherwise returns the code to exit with: the
// agent's, or 128+n for a signal n.
func ExitCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		DieBy(ws.Signal())
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// itoa formats a non-negative n in decimal (strconv is not imported: see
// the package comment).
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

// PassOn passes the SIGTERM and SIGHUP read from sigs (sent to us alone)
// on to the agent pid, until the function it returns is called once the
// agent has been reaped, after which its PID may name another process.
// Other signals read are dropped (the terminal sent them to the agent
// too). Both one-shot paths use it: runPrint and main's runChild.
func PassOn(pid int, sigs <-chan os.Signal) (reaped func()) {
	var done atomic.Bool
	go func() {
		for sig := range sigs {
			if s := sig.(syscall.Signal); (s == syscall.SIGTERM || s == syscall.SIGHUP) && !done.Load() {
				syscall.Kill(pid, s) // not reaped yet: still the agent's PID
			}
		}
	}()
	return func() { done.Store(true) }
}
