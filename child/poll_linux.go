package child

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// ttyPaths are where the terminal f is on can be opened again: on Linux,
// /proc/self/fd/N opens the file itself, not a copy of the descriptor.
func ttyPaths(f *os.File) []string {
	return []string{"/proc/self/fd/" + strconv.Itoa(int(f.Fd()))}
}

// ioctlUnread asks a terminal how many bytes wait to be read (FIONREAD).
const ioctlUnread = unix.TIOCINQ
