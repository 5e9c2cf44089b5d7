package safefs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// OpenRegular opens the regular file at path for reading, following
// links in the path: for a file another program keeps and superclaude
// only reads, found by its path — an agent CLI's transcript, its chat or
// rollout file. Anything else there — a FIFO, a device, a socket, which
// another process of the user's may have put under the file's name — is
// refused with [ErrUnsafe] without being waited on: the open does not
// block, and the file is used only when fstat says it is a regular file.
func OpenRegular(path string) (*os.File, error) {
	fd, err := Openat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, WrongKind(path, uint32(st.Mode), "a regular file")
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}
