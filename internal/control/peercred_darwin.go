package control

import "golang.org/x/sys/unix"

// peerCred reads LOCAL_PEERCRED (uid) and LOCAL_PEERPID (pid).
func peerCred(fd int) (Peer, error) {
	xu, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return Peer{}, err
	}
	pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	if err != nil {
		return Peer{}, err
	}
	return Peer{UID: int(xu.Uid), PID: pid}, nil
}
