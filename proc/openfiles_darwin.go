package proc

import (
	"bufio"
	"bytes"
	"os/exec"
	"strconv"
	"strings"
)

// openFiles asks lsof, which every macOS has, for the process's open
// regular files (-F tn: a "t" line with the type, an "n" line with the
// name, per descriptor). No library call of the Go toolchain lists
// another process's descriptors on macOS.
func openFiles(pid int) ([]string, error) {
	out, err := exec.Command("/usr/sbin/lsof", "-n", "-P", "-w", "-a", "-p", strconv.Itoa(pid), "-F", "tn").Output()
	if err != nil && len(out) == 0 {
		return nil, err
	}
	var files []string
	regular := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "t"):
			regular = line == "tREG"
		case strings.HasPrefix(line, "n") && regular && strings.HasPrefix(line, "n/"):
			files = append(files, line[1:])
		}
	}
	return files, nil
}
