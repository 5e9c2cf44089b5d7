package safefs

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// ErrUnsafe reports something superclaude will not use: a symbolic link
// where none may be, a FIFO, device, socket or directory where a regular
// file belongs (or the other way round), or a file or directory of
// another user, or open to every user.
var ErrUnsafe = errors.New("unsafe file")

// ErrTooLarge reports a file over its size limit.
var ErrTooLarge = errors.New("file over its size limit")

// Problem is a file that is there but cannot be used. Text reads after
// the path: "is a FIFO, not a regular file".
type Problem struct {
	Path string
	Text string
	Kind error // ErrUnsafe or ErrTooLarge
}

func (e *Problem) Error() string { return e.Path + " " + e.Text }

// Is matches the problem's kind and the kind's aliases (AliasOf).
func (e *Problem) Is(t error) bool {
	if t == e.Kind {
		return true
	}
	for _, a := range aliases[e.Kind] {
		if t == a {
			return true
		}
	}
	return false
}

// aliases maps ErrUnsafe and ErrTooLarge to the errors of other packages
// that mean the same (state.ErrUnsafePath: a public package must not hand
// out an internal one).
var aliases = map[error][]error{}

// AliasOf makes errors.Is(p, alias) hold for every problem of kind. Call
// it from an init function: the table is not locked.
func AliasOf(kind, alias error) { aliases[kind] = append(aliases[kind], alias) }

// SizeText renders a limit the way a person reads it: "1 MiB", "4 KiB".
func SizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// TooLarge is the problem of a file of size bytes over limit; what names
// the kind of file ("a state file").
func TooLarge(path string, size, limit int64, what string) error {
	return &Problem{Path: path, Kind: ErrTooLarge,
		Text: fmt.Sprintf("is %d bytes, over the %s limit for %s", size, SizeText(limit), what)}
}

// KindName names a file type (the S_IFMT bits of a mode) for messages.
func KindName(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "a regular file"
	case unix.S_IFDIR:
		return "a directory"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	}
	return "an unknown kind of file"
}

// WrongKind is the problem of finding a file of mode at path where want
// ("a regular file", "a directory") belongs.
func WrongKind(path string, mode uint32, want string) error {
	if mode&unix.S_IFMT == unix.S_IFLNK {
		return &Problem{Path: path, Kind: ErrUnsafe,
			Text: "is a symbolic link, which superclaude does not follow here"}
	}
	return &Problem{Path: path, Kind: ErrUnsafe, Text: "is " + KindName(mode) + ", not " + want}
}
