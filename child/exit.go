package child

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Exit is how an agent process ended.
type Exit struct {
	// Code is what a shell would report: the exit status, or 128+n when
	// signal n killed the process.
	Code int
	// Signal is the signal that killed the process; 0 when it exited.
	Signal syscall.Signal
	// Started and Ended bound the process's life as the supervisor saw it.
	Started, Ended time.Time
	// Err is set when the process could not be started or waited for;
	// Code is then 127 (not found / not executable) or 1.
	Err error
}

// Runtime is how long the process ran.
func (e Exit) Runtime() time.Duration { return e.Ended.Sub(e.Started) }

// String says how the process ended, as the log and +why write it.
func (e Exit) String() string {
	switch {
	case e.Err != nil:
		return "failed: " + e.Err.Error()
	case e.Signal != 0:
		return fmt.Sprintf("killed by %s", SignalName(e.Signal))
	default:
		return fmt.Sprintf("exited with %d", e.Code)
	}
}

// exitOf reads an Exit from a finished process's state.
func exitOf(ps *os.ProcessState) Exit {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return Exit{Code: ps.ExitCode()}
	}
	return exitOfStatus(ws)
}

// exitOfStatus reads an Exit from a wait status.
func exitOfStatus(ws syscall.WaitStatus) Exit {
	if ws.Signaled() {
		return Exit{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
	}
	return Exit{Code: ws.ExitStatus()}
}

// SignalName names a signal as people write it: SIGTERM, SIGKILL.
func SignalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}
