package handover

import (
	"os"
	"syscall"
	"unsafe"
)

// WaitAgent waits for the one-shot agent pid to exit and returns its
// status. When the agent stops by job control on its own (it reads the
// terminal from the background, it stops itself with SIGTSTP) we stop too,
// by the same signal, so that the shell sees the job stopped as it would
// see the agent; when we are continued, so is the agent. Before, we went
// on waiting for an agent that would never run again, and the terminal
// hung (a hostile tester's find).
//
// A stop of the whole job (Ctrl-Z, or a read of the terminal from the
// background, which the kernel signals to the whole group) stops us by
// itself; its report comes once `fg` has continued both, when the agent no
// longer is stopped (stoppedNow), and is passed over. A SIGSTOP is not job
// control (a debugger, cpulimit, a freezer), and whoever sends one to the
// agent alone continues the agent alone: we do not stop for it, nor for
// any stop when we are not the foreground job of a terminal, where no
// shell would ever continue us (CI, timeout(1), systemd: a hostile
// tester's find).
func WaitAgent(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil || !ws.Stopped():
			return ws
		case !jobControlStop(ws.StopSignal()) || !stoppedNow(pid) || !foreground():
			continue
		}
		syscall.Kill(os.Getpid(), ws.StopSignal()) // returns once we are continued
		syscall.Kill(pid, syscall.SIGCONT)
	}
}

// jobControlStop reports whether sig is one of the terminal's job-control
// stops.
func jobControlStop(sig syscall.Signal) bool {
	return sig == syscall.SIGTSTP || sig == syscall.SIGTTIN || sig == syscall.SIGTTOU
}

// foreground reports whether we are the foreground process group of the
// terminal on our standard input, output or error.
func foreground() bool {
	self := syscall.Getpgrp()
	for fd := 0; fd <= 2; fd++ {
		var pgrp int32
		if _, _, e := syscall.RawSyscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp))); e == 0 {
			return int(pgrp) == self
		}
	}
	return false
}

// stoppedNow reports whether process pid is stopped now (state T or t in
// /proc/PID/stat).
func stoppedNow(pid int) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	state, ok := statField(b, 3)
	return ok && (state == "T" || state == "t")
}
