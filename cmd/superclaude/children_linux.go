package main

import (
	"os"
	"path/filepath"
	"strings"
)

// mayHaveLeftovers reports whether anything could be left to sweep after a
// one-shot agent: as a child subreaper every process the agent left behind
// is a child of ours, and the kernel lists each thread's children in
// /proc/self/task/*/children. True when that cannot be read: the sweep then
// looks.
func mayHaveLeftovers() bool {
	tasks, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil || len(tasks) == 0 {
		return true
	}
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil || strings.TrimSpace(string(b)) != "" {
			return true
		}
	}
	return false
}
