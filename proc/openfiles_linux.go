package proc

import (
	"os"
	"strconv"
	"strings"
)

// openFiles reads the links in /proc/<pid>/fd: a file descriptor of a
// regular file links to its path; sockets, pipes and anonymous inodes to
// a name in brackets, which are left out, as are files deleted since.
func openFiles(pid int) ([]string, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, gone(pid, err)
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		target, err := os.Readlink(dir + "/" + e.Name())
		if err != nil || !strings.HasPrefix(target, "/") || strings.HasSuffix(target, " (deleted)") {
			continue
		}
		out = append(out, target)
	}
	return out, nil
}
