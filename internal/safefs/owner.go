package safefs

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// euid is the user superclaude runs as, whose files it trusts.
var euid = os.Geteuid()

// trusted reports whether a file or directory of uid may be used: the
// user's own, or root's (root is no neighbour to fear: it can do anything
// already; a system may provide configuration, or a read-only sessions
// directory, as root). superclaude writes only to the user's own.
func trusted(uid uint32) bool { return int(uid) == euid || uid == 0 }

// checkStat applies the owner and mode rules to what fstat said of the
// file or directory at path: it must be trusted, and must not be writable
// by every user, nor by a group another user is in (openToOthers) —
// anyone could have put its content there, or swap what a directory
// holds. write asks for the user's own.
//
// A directory every user (or group) may write to that has the sticky bit, as /tmp
// has (and macOS's /private/tmp), passes: there a name can be removed or
// renamed only by the owner of what it names or of the directory, and
// the directory is trusted, so nobody else can swap what superclaude
// goes on to open in it; and what another user puts there is theirs,
// which the next check refuses. Refusing it would refuse every file
// below /tmp — a --settings file, a project checked out there.
func checkStat(path string, st *unix.Stat_t, write bool) error {
	if !trusted(st.Uid) || (write && int(st.Uid) != euid) {
		return &Problem{Path: path, Kind: ErrUnsafe,
			Text: fmt.Sprintf("belongs to uid %d, not to you (uid %d), and superclaude uses no other user's files here", st.Uid, euid)}
	}
	if why := openToOthers(st); why != "" {
		return &Problem{Path: path, Kind: ErrUnsafe, Text: why}
	}
	return nil
}

// openToOthers says why st, trusted, is of a file or directory that
// someone else may have written to — every user may write to it, or a
// group that other users share (group.go) — and "" when it is not.
func openToOthers(st *unix.Stat_t) string {
	if st.Mode&0o022 == 0 || stickyDir(st) {
		return ""
	}
	if st.Mode&0o002 != 0 {
		return fmt.Sprintf("is writable by every user (mode %04o), so anyone could have changed it; superclaude does not use it (chmod o-w to allow it)", st.Mode&0o7777)
	}
	if privateGroup(st.Uid, st.Gid) {
		return ""
	}
	return fmt.Sprintf("is writable by its group (gid %d, mode %04o), which other users share or which is not the owner's own group, so they could have changed it; superclaude does not use it (chmod g-w to allow it)", st.Gid, st.Mode&0o7777)
}

// stickyDir reports whether st is of a directory with the sticky bit.
func stickyDir(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFDIR && st.Mode&unix.S_ISVTX != 0
}

// CheckDir applies the owner and mode rules to the directory open as fd
// (at path, for messages).
func CheckDir(fd int, path string) error {
	return checkDir(fd, func() string { return path })
}

// checkDir is CheckDir with the path worked out only for a message.
func checkDir(fd int, path func() string) error {
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return &os.PathError{Op: "fstat", Path: path(), Err: err}
	}
	if err := checkStat("", &st, false); err != nil {
		return checkStat(path(), &st, false)
	}
	return nil
}

// CheckPath applies the owner and mode rules to the directory or file at
// path, following links in it (a trusted base directory, as the user
// named it).
func CheckPath(path string) error {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return checkStat(path, &st, false)
}

// tighten makes a file of the user's own that others may read or write
// private (0600) before superclaude writes to it: a log or event file
// left open to the group or everyone would show them what the agent was
// told.
func tighten(fd int, st *unix.Stat_t) error {
	if st.Mode&0o077 == 0 {
		return nil
	}
	return unix.Fchmod(fd, 0o600)
}

func fstat(fd int, st *unix.Stat_t) error {
	for {
		err := unix.Fstat(fd, st)
		if err != unix.EINTR {
			return err
		}
	}
}
