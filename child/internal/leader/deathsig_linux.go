package leader

import "syscall"

// SetDeathSignal asks the kernel to send sig to the process when the thread
// that started it exits (PR_SET_PDEATHSIG): the caller forks from a thread
// that lives as long as it does, so that this is when it exits, by any
// path, SIGKILL included.
func SetDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) { attr.Pdeathsig = sig }

// DeathSignalSupported reports whether SetDeathSignal does anything here.
const DeathSignalSupported = true
