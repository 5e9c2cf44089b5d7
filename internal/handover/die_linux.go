package handover

import (
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// DieBy ends the program by sig, so that our parent sees what it would
// have seen of the agent. The signal's disposition is set back to the
// system's default with rt_sigaction, behind Go's runtime: the runtime's
// own handler would print goroutines for SIGQUIT and ignore SIGPIPE, and
// os/signal's Reset leaves a signal that was ignored (runPrint ignores
// SIGINT) ignored. The signal is sent to this thread with it unblocked
// here: a signal our parent blocked stays blocked in every thread of ours
// and would wait for ever. It returns only for a signal whose default is
// not to end the program; the caller then exits with 128+n.
func DieBy(sig syscall.Signal) {
	if sig != syscall.SIGKILL && setDisposition(sig, sigDefault) != nil {
		return
	}
	runtime.LockOSThread()
	set := uint64(1) << (uint(sig) - 1)
	const sigUnblock = 1 // SIG_UNBLOCK
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, sigUnblock, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	syscall.Tgkill(os.Getpid(), syscall.Gettid(), sig)
	time.Sleep(time.Second) // delivered well before
}

// The dispositions setDisposition sets (SIG_DFL, SIG_IGN).
const (
	sigDefault = 0
	sigIgnore  = 1
)

// setDisposition sets sig to SIG_DFL or SIG_IGN. Only the handler of the
// kernel's struct sigaction is set; the rest (flags, restorer, mask, laid
// out per architecture) is zero, which is right for both dispositions on
// every architecture.
func setDisposition(sig syscall.Signal, handler uintptr) error {
	var act [4]uint64
	act[0] = uint64(handler)
	const sigsetSize = 8 // the kernel's sigset_t: 64 signals
	if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, sigsetSize, 0, 0); e != 0 {
		return e
	}
	return nil
}
