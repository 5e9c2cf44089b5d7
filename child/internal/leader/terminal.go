package leader

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// takeTerminal makes tty the controlling terminal of the leader's session.
// A session has one: the last agent's was given up as it ended
// (giveUpTerminal); should the session have one all the same, it is given
// up first.
func takeTerminal(tty int) error {
	if old, err := unix.Open("/dev/tty", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0); err == nil {
		unix.IoctlSetInt(old, unix.TIOCNOTTY, 0)
		unix.Close(old)
	}
	return unix.IoctlSetInt(tty, unix.TIOCSCTTY, 0)
}

// giveUpTerminal gives up tty as the session's controlling terminal, as
// the end of a leader of one agent did: the terminal's foreground group —
// the agent's, ended, with whatever it left there — gets a hangup.
func giveUpTerminal(tty int) { unix.IoctlSetInt(tty, unix.TIOCNOTTY, 0) }

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
