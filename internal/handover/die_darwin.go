package handover

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// DieBy ends the program by sig where Go's runtime lets it: the signals it
// kills a program with when nobody listens (SIGHUP, SIGINT, SIGTERM) and
// SIGKILL. For others (SIGQUIT would print goroutines, SIGPIPE and SIGUSR1
// would be ignored) it returns, and the caller exits with 128+n.
func DieBy(sig syscall.Signal) {
	switch sig {
	case syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL:
	default:
		return
	}
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second) // delivered well before
}
