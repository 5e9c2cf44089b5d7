package child

import "syscall"

// setDeathSignal asks the kernel to send sig to the process when the thread
// that started it exits (PR_SET_PDEATHSIG). Processes are started from a
// thread that lives as long as the program (see starter.go), so that is
// when the program exits, by any path: SIGKILL included.
func setDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) { attr.Pdeathsig = sig }

// deathSignalSupported reports whether setDeathSignal does anything here.
const deathSignalSupported = true
