package control

import "golang.org/x/sys/unix"

// peerCred reads SO_PEERCRED: the peer's pid and uid at connect time.
func peerCred(fd int) (Peer, error) {
	uc, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Peer{}, err
	}
	return Peer{UID: int(uc.Uid), PID: int(uc.Pid)}, nil
}
