package leader

import "syscall"

// handedControl reports whether CtlFD is what a supervisor hands its
// session leader (child/leader.go): one end of a Unix stream socket pair
// whose other end is its parent's (peerIsParent). A process that merely
// has the leader's variable in its environment — a hook claude runs, with
// a repository's settings `env` — has no such descriptor.
func handedControl() bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(CtlFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return false
	}
	typ, err := syscall.GetsockoptInt(CtlFD, syscall.SOL_SOCKET, syscall.SO_TYPE)
	if err != nil || typ != syscall.SOCK_STREAM {
		return false
	}
	return peerIsParent(CtlFD)
}
