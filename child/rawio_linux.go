package child

import (
	"io"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// relayFile returns the reader and writer the relay uses for f. For a file
// in the poller they issue read(2) and write(2) as raw system calls: on a
// non-blocking file those never block, and a raw call skips the runtime's
// system-call bookkeeping, which wakes the sleeping sysmon thread on every
// call when the program was idle (a futex wake-up per keystroke, then
// sysmon polling every 20 µs for a while on a 2-core machine). Waiting
// stays with the poller. A file outside the poller is used as it is.
func relayFile(f *os.File) io.ReadWriter {
	if f.SetReadDeadline(noDeadline) != nil {
		return f
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawFile{f: f, rc: rc}
}

type rawFile struct {
	f  *os.File
	rc syscall.RawConn
}

func (r *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			v, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e == unix.EINTR {
				continue
			}
			n, errno = int(v), e
			return e != unix.EAGAIN
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawFile) Write(p []byte) (int, error) { return r.write(p, true) }

// TryWrite writes what the file takes without waiting: a short count and
// no error when it is full.
func (r *rawFile) TryWrite(p []byte) (int, error) { return r.write(p, false) }

// write writes p with raw write(2)s; when the file is full it waits in the
// poller for room if wait is set, else returns the short count.
func (r *rawFile) write(p []byte, wait bool) (int, error) {
	written := 0
	var errno syscall.Errno
	err := r.rc.Write(func(fd uintptr) bool {
		for written < len(p) {
			rest := p[written:]
			v, _, e := unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
			switch e {
			case 0:
				written += int(v)
			case unix.EINTR:
			case unix.EAGAIN:
				return !wait // false: the poller waits for room, then calls again
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = &os.PathError{Op: "write", Path: r.f.Name(), Err: errno}
	}
	return written, err
}
