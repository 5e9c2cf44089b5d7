package proc

import (
	"strings"

	"golang.org/x/sys/unix"
)

// environ reads a process's environment with sysctl kern.procargs2, which
// lays out: argc (int32), the executable path, NUL padding, argc arguments,
// then the environment, each NUL-terminated. Only processes of the same
// user can be read.
func environ(pid int) ([]string, error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	return parseProcargs2(buf)
}

// uidOf is not needed on macOS, where the process table carries the uid.
func uidOf(int) int { return -1 }

// envValue returns the value of the first entry of pid's environment that
// starts with prefix ("KEY=").
func envValue(pid int, prefix string) (string, bool) {
	env, err := environ(pid)
	if err != nil {
		return "", false
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, prefix); ok {
			return v, true
		}
	}
	return "", false
}
