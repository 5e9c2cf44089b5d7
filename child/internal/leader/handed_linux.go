package leader

import (
	"os"

	"golang.org/x/sys/unix"
)

// peerIsParent reports whether the socket fd's peer is our parent: the
// credentials of a socket pair's ends are those of the process that made
// the pair, the supervisor, which started us.
func peerIsParent(fd int) bool {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	return err == nil && int(cred.Pid) == os.Getppid()
}
