package handover

import "syscall"

// HasChildren reports whether this process has children, in one wait4 with
// WNOHANG when it has none; children that have exited are reaped on the
// way. Before an agent starts, children are not the agent's: a shell that
// ran `job & exec superclaude -p …` left us its job, which a sweep after
// the agent must leave alone.
func HasChildren() bool {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.ECHILD:
			return false
		case err == syscall.EINTR:
		case err != nil || pid == 0: // a child still runs
			return true
		}
	}
}
