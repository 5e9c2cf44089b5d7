package handover

import "os"

// eldestChild reports whether this process is the eldest living child of
// its parent ppid: no other child started before it, or in the same clock
// tick (start times are in ticks of 10 ms). The agent a superclaude starts
// is its first child, and anything its parent adopts later as a subreaper
// descends from the agent, so started later, or while the agent lives: an
// orphan whose arguments happen to end with the agent's is told apart by
// this (a hostile tester's find). The agent itself asks right after its
// exec, before it has started anything. When the kernel cannot say
// (no /proc/PID/task/TID/children), it reports true: the rule without it.
func eldestChild(ppid int) bool {
	mine, ok := startTime(os.Getpid())
	if !ok {
		return true
	}
	tasks, err := os.ReadDir("/proc/" + itoa(ppid) + "/task")
	if err != nil {
		return true
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + itoa(ppid) + "/task/" + task.Name() + "/children")
		if err != nil {
			continue // a thread gone since, or no such file: nothing to say
		}
		for start := 0; start < len(b); {
			end := start
			for end < len(b) && b[end] != ' ' && b[end] != '\n' {
				end++
			}
			if pid := atoi(string(b[start:end])); pid > 0 && pid != os.Getpid() {
				if other, ok := startTime(pid); ok && other <= mine {
					return false
				}
			}
			start = end + 1
		}
	}
	return true
}

// startTime is field 22 of /proc/PID/stat, when the process started.
func startTime(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	f, ok := statField(b, 22)
	if n := atoi(f); ok && n >= 0 {
		return uint64(n), true
	}
	return 0, false
}

// atoi reads a non-negative decimal; -1 for anything else.
func atoi(s string) int {
	if s == "" {
		return -1
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
