package leader

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// takeTerminal makes tty the controlling terminal of the leader's session.
// A session has one; the last agent's is given up first, if the session
// still has it (the supervisor closing that pty's master hangs it up,
// which takes it away too, but that close runs aside and may come later).
// Giving it up sends the terminal's foreground group — the last agent's,
// gone by now with what it left, which the supervisor sweeps before it
// starts the next — a hangup.
func takeTerminal(tty int) error {
	if old, err := unix.Open("/dev/tty", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0); err == nil {
		unix.IoctlSetInt(old, unix.TIOCNOTTY, 0)
		unix.Close(old)
	}
	return unix.IoctlSetInt(tty, unix.TIOCSCTTY, 0)
}

// readSpec reads one agent's command from the control socket fd (Frame
// says how it comes): its bytes and the agent's terminal, -1 when none
// came. io.EOF: the supervisor closed the socket.
func readSpec(fd int) (data []byte, tty int, err error) {
	tty = -1
	var hdr [frameHeader]byte
	oob := make([]byte, syscall.CmsgSpace(4*4))
	var n, oobn int
	for {
		n, oobn, _, _, err = syscall.Recvmsg(fd, hdr[:], oob, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, -1, err
	}
	if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
		for _, m := range msgs {
			fds, _ := syscall.ParseUnixRights(&m)
			for _, f := range fds {
				if tty < 0 {
					tty = f
					syscall.CloseOnExec(f)
				} else {
					syscall.Close(f)
				}
			}
		}
	}
	if n == 0 {
		closeFD(tty)
		return nil, -1, errEOF
	}
	if err := readFull(fd, hdr[n:]); err != nil {
		closeFD(tty)
		return nil, -1, err
	}
	size := frameSize(hdr)
	if size > maxSpec {
		closeFD(tty)
		return nil, -1, errTooLong
	}
	data = make([]byte, size)
	if err := readFull(fd, data); err != nil {
		closeFD(tty)
		return nil, -1, err
	}
	return data, tty, nil
}

// readFull reads len(b) bytes from fd.
func readFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Read(fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return errEOF
		}
		b = b[n:]
	}
	return nil
}
