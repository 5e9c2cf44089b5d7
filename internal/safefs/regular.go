package safefs

import (
	"io"
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

// ReadRegular reads the regular file at path, following links in the
// path, refusing one over limit bytes (what names the kind of file, for
// the message) and anything that is not a regular file, without waiting
// on it: for a file the person names (a fleet file), which a cloned
// repository may have made a link to /dev/zero, never ending, or to a
// FIFO, never answering.
func ReadRegular(path string, limit int64, what string) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, TooLarge(path, fi.Size(), limit, what)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, TooLarge(path, int64(len(b)), limit, what)
	}
	return b, nil
}
