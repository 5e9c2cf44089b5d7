package proc

import (
	"bytes"
	"strconv"

	"golang.org/x/sys/unix"
)

// environ reads /proc/<pid>/environ: the environment the process was
// started with, NUL-separated.
func environ(pid int) ([]string, error) {
	var buf [4096]byte
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/environ", buf[:])
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

// envValue returns the value of the first entry of pid's environment that
// starts with prefix ("KEY="), read without splitting the environment
// into strings: a walk reads every process's.
func envValue(pid int, prefix string) (string, bool) {
	var buf [8192]byte
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/environ", buf[:])
	if err != nil {
		return "", false
	}
	p := []byte(prefix)
	for len(b) > 0 {
		entry := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			entry, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if bytes.HasPrefix(entry, p) {
			return string(entry[len(p):]), true
		}
	}
	return "", false
}
