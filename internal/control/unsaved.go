package control

import (
	"fmt"
	"io/fs"
	"os"
)

// unsavedBit, on the control socket, is a supervisor's word to its hooks
// that its status line's ticks cannot be stored (a full disk): the
// session file then holds an older context usage than the one the
// status line showed, and a hook that guards the context must ask the
// supervisor what it saw (Status). The owner's execute bit means nothing
// for a socket, and setting it needs no room on any disk: the hook before
// every tool call learns in one lstat that there is nothing to ask, where
// it used to make a round trip to the supervisor every time (0.7 ms of a
// 3.8 ms hook, issue 22).
const unsavedBit = 0o100

// MarkUnsaved sets the mark on the socket at path (unsaved), or clears
// it. Only a socket is changed: anything else there is left as it is
// ([ErrOccupied]).
func MarkUnsaved(path string, unsaved bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("%s is %s: %w", path, kindOf(fi.Mode()), ErrOccupied)
	}
	mode := fs.FileMode(0o600)
	if unsaved {
		mode |= unsavedBit
	}
	// chmod follows a link; the socket was a socket an instant ago, in a
	// private directory where only the user could swap it (as Listen).
	return os.Chmod(path, mode)
}

// Unsaved reports whether the socket at path carries the mark: whether
// its supervisor has ticks it could not store. False when there is no
// socket there.
func Unsaved(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSocket != 0 && fi.Mode().Perm()&unsavedBit != 0
}
