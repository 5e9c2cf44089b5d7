package handover

import "syscall"

// WaitAgent waits for the one-shot agent pid to exit and returns its
// status. (Linux also mirrors the agent's stops; macOS has no /proc to
// tell a stop still in force from one already continued.)
func WaitAgent(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return ws
		}
	}
}
