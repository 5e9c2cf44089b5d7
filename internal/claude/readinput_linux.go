package claude

import (
	"errors"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// readFileInput is ReadInput for a file, in the calling goroutine: each
// read waits in poll(2) for at most what is left until deadline. ok is
// false when f offers no descriptor to poll, and nothing has been read:
// the caller reads it the general way.
//
// The descriptor is used as it is: poll says when a read will not block,
// so a blocking pipe never blocks past the deadline, and its flags, which
// claude's side of it may share, are never changed. A non-blocking one
// that has nothing after all (EAGAIN) is polled again.
func readFileInput(f *os.File, limit int64, deadline time.Time) (data []byte, over, late bool, err error, ok bool) {
	rc, cerr := f.SyscallConn()
	if cerr != nil {
		return nil, false, false, nil, false
	}
	cerr = rc.Control(func(fd uintptr) {
		data, over, late, err = pollRead(int(fd), limit, deadline)
	})
	if cerr != nil {
		return nil, false, false, nil, false
	}
	return data, over, late, err, true
}

// errLate is waitReadable's word that the deadline passed.
var errLate = errors.New("deadline passed")

// pollRead reads fd to its end, as ReadInput does: at most limit bytes
// kept, the rest (up to maxDrain) read and thrown away; late, and nothing
// returned, when deadline passes first.
func pollRead(fd int, limit int64, deadline time.Time) (data []byte, over, late bool, err error) {
	// A tick is 1–2 KiB, a hook's input a few; drain, once over the
	// limit, is where the rest is read and dropped.
	buf := make([]byte, 0, min(limit+1, 4<<10))
	var drain []byte
	var drained int64
	for {
		if err := waitReadable(fd, deadline); err != nil {
			if err == errLate {
				return nil, false, true, nil
			}
			return buf, over, false, err
		}
		into := drain
		if !over {
			if len(buf) == cap(buf) {
				buf = slices.Grow(buf, len(buf))
			}
			into = buf[len(buf):min(int64(cap(buf)), limit+1)]
		}
		n, rerr := unix.Read(fd, into)
		switch {
		case rerr == unix.EINTR || rerr == unix.EAGAIN:
			continue
		case rerr != nil && over:
			return buf, over, false, nil // the drain's failure is not the input's
		case rerr != nil:
			return buf, over, false, rerr
		case n == 0:
			return buf, over, false, nil
		case over:
			if drained += int64(n); drained >= maxDrain {
				return buf, over, false, nil
			}
			continue
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			over, buf, drain = true, buf[:limit], make([]byte, 64<<10)
		}
	}
}

// waitReadable waits until a read of fd will not block, or deadline
// passes (errLate).
func waitReadable(fd int, deadline time.Time) error {
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return errLate
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int((left+time.Millisecond-1)/time.Millisecond))
		switch {
		case err == unix.EINTR || err == nil && n == 0:
		case err != nil:
			return err
		default:
			return nil // readable, at its end, or failed: the read says which
		}
	}
}
