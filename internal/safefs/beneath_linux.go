package safefs

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// ReadBeneath reads the regular file at rel, a relative path below d, with
// one openat2(2) that refuses a link anywhere on the way (and any step out
// of d): the walk in one system call instead of an open and a close per
// directory. ok is false when openat2 fails — a link, a missing file, a
// kernel older than 5.6 — and the caller then walks step by step, which
// also says precisely what is wrong. The directories on the way are not
// checked for their owner (the file is, and a neighbour cannot make a
// file of the user's).
func (d *Dir) ReadBeneath(rel string, limit int64, what string) (data []byte, ok bool, err error) {
	if noOpenat2.Load() {
		return nil, false, nil
	}
	var fd int
	for {
		fd, err = unix.Openat2(d.fd, rel, &unix.OpenHow{
			Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != unix.EINTR {
			break
		}
	}
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		// No openat2 here (or a seccomp filter refuses it): don't ask
		// again. The walk is correct everywhere; this is only faster.
		noOpenat2.Store(true)
	}
	if err != nil {
		return nil, false, nil
	}
	data, err = readRegular(fd, d, rel, limit, what)
	return data, true, err
}

// noOpenat2 is set once openat2 turns out not to be there.
var noOpenat2 atomic.Bool
