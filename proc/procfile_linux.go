package proc

import (
	"golang.org/x/sys/unix"
)

// readProcFile reads a small /proc file into buf with three system calls —
// open, read, close — and returns what it read. os.ReadFile costs four
// more for each of the hundreds of files a walk of the process table
// reads (an fstat for the size, and the poller's attempt to register a
// file it cannot wait on: fcntl and a failing epoll_ctl). A file larger
// than buf is read in full into a larger buffer.
func readProcFile(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
	}
}
