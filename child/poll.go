package child

import (
	"os"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Why the relay's files are in Go's poller (issue 12). A keystroke crosses
// the relay twice: stdin → the agent's pty, and the echo from the pty →
// stdout. With blocking files each read parks an OS thread in the kernel;
// under GOMAXPROCS=1 the one P is taken from that thread by sysmon, so the
// read's return needs a futex hand-off (and sometimes a preemption signal)
// before the goroutine runs. That cost about 170 µs per key over script(1).
// With every file non-blocking and registered with the poller, one thread
// sleeps in epoll_wait/kevent and runs the copy itself when a byte arrives,
// as script(1)'s poll loop does.
//
// creack/pty returns the master in blocking mode (its ioctls call Fd), and
// stdin and stdout are opened by our parent and shared with it: making their
// open file descriptions non-blocking would hand the shell a non-blocking
// terminal after we exit. So the master is duplicated into a new file, and
// the terminal is opened again, which gives us an open file description of
// our own.

var noDeadline time.Time

// openPTY opens a new pty of size ws. The master is in the poller where the
// system allows it; the slave is blocking, for the agent.
func openPTY(ws *pty.Winsize) (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	if ws != nil {
		if err := pty.Setsize(m, ws); err != nil {
			m.Close()
			s.Close()
			return nil, nil, err
		}
	}
	return inPoller(m), s, nil
}

// inPoller returns a file for f's open file description that Go's poller
// waits on, closing f; when the poller cannot take it, f itself, blocking.
func inPoller(f *os.File) *os.File {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return f
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return f
	}
	nf := os.NewFile(uintptr(fd), f.Name())
	if nf.SetReadDeadline(time.Time{}) != nil {
		// Not pollable: a non-blocking file outside the poller would
		// return EAGAIN to every read.
		nf.Close()
		unix.SetNonblock(int(f.Fd()), false)
		return f
	}
	f.Close()
	return nf
}

// reopenTerminal opens the terminal f is on again, for an open file
// description of our own that can be non-blocking and in the poller without
// touching the one our parent shares with us. It returns nil when it cannot
// (the caller then uses f, blocking).
func reopenTerminal(f *os.File) *os.File {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return nil
	}
	for _, path := range ttyPaths(f) {
		r, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		if rdev, err := rdevOf(r); err != nil || rdev != uint64(st.Rdev) {
			r.Close()
			continue
		}
		// os.OpenFile put r in the poller if it could, and left it
		// blocking if not.
		return r
	}
	return nil
}

// setSize sets a pollable pty's window size without Fd, which would make
// it blocking.
func setSize(f *os.File, ws *pty.Winsize) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ierr error
	err = rc.Control(func(fd uintptr) {
		ierr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: ws.Rows, Col: ws.Cols, Xpixel: ws.X, Ypixel: ws.Y})
	})
	if err != nil {
		return err
	}
	return ierr
}

// rdevOf returns the device f is, without Fd.
func rdevOf(f *os.File) (uint64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil {
		return 0, err
	}
	return uint64(st.Rdev), serr
}
