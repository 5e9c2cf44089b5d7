package supervise_test

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TCGETS
