package proc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sendSignal verifies, then signals by number. macOS has no pidfd; the window
// between the two is microseconds, and macOS hands out PIDs in sequence up
// to 99,999 before it reuses one.
func sendSignal(id Identity, sig syscall.Signal) error {
	if err := id.Verify(); err != nil {
		return err
	}
	return gone(id.PID, unix.Kill(id.PID, sig))
}
