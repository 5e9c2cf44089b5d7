package child

import "golang.org/x/sys/unix"

// The ioctls that read and write a terminal's mode.
const (
	ioctlReadTermios  = unix.TCGETS
	ioctlWriteTermios = unix.TCSETS
)
