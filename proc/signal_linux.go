package proc

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// sendSignal opens a pidfd before it checks the start time. A pidfd names one
// process, not a number: if the PID was recycled before the open, the start
// time read after it differs and the signal is refused; if the process dies
// after the check, pidfd_send_signal fails with ESRCH instead of reaching
// whoever gets the number next. The order — open, then verify, then signal
// through the fd — is what closes the race.
func sendSignal(id Identity, sig syscall.Signal) error {
	fd, err := unix.PidfdOpen(id.PID, 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("pid %d: %w", id.PID, ErrGone)
		}
		// No pidfd on this kernel (before 5.3) or not permitted: verify and
		// signal by number, which leaves a window of microseconds.
		if err := id.Verify(); err != nil {
			return err
		}
		return gone(id.PID, unix.Kill(id.PID, sig))
	}
	defer unix.Close(fd)
	if err := id.Verify(); err != nil {
		return err
	}
	return gone(id.PID, unix.PidfdSendSignal(fd, sig, nil, 0))
}
