package proc

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// environ reads /proc/<pid>/environ: the environment the process was
// started with, NUL-separated.
func environ(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, kv := range bytes.Split(b, []byte{0}) {
		if len(kv) > 0 {
			out = append(out, string(kv))
		}
	}
	return out, nil
}

// uidOf returns the real uid a process runs as (the owner of /proc/<pid>),
// or -1 when it cannot be read.
func uidOf(pid int) int {
	var st unix.Stat_t
	if err := unix.Stat("/proc/"+strconv.Itoa(pid), &st); err != nil {
		return -1
	}
	return int(st.Uid)
}
