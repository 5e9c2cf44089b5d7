package proc

import "golang.org/x/sys/unix"

// BecomeSubreaper makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER): orphans below it reparent to it instead of to
// init, so an agent's detached tool processes can still be found by walking
// parent links from the supervisor, and reaped by it.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// SubreaperSupported reports whether [BecomeSubreaper] can work here.
const SubreaperSupported = true
