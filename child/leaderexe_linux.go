package child

// leaderExecutable is the program re-executed as the session leader: this
// very binary, even when the file it was started from has since been
// replaced (an upgrade while it runs).
func leaderExecutable() (string, error) { return "/proc/self/exe", nil }
