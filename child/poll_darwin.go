package child

import "os"

// ttyPaths are where the terminal f is on can be opened again: on macOS
// /dev/fd/N duplicates the descriptor (the same open file description), so
// only the controlling terminal, /dev/tty, is tried; the caller checks that
// it is the same device. When kqueue will not take it, os.OpenFile leaves
// it blocking, and the relay works as before.
func ttyPaths(f *os.File) []string {
	return []string{"/dev/tty"}
}

// ioctlUnread asks a terminal how many bytes wait to be read: FIONREAD,
// _IOR('f', 127, int), which x/sys/unix does not name for darwin.
const ioctlUnread = 0x4004667f
