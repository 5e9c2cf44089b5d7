package proc

import (
	"bytes"
	"os"
	"strconv"
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
