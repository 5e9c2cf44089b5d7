package child

import "os"

// leaderExecutable is the program re-executed as the session leader: this
// binary, by the path it was started from.
func leaderExecutable() (string, error) { return os.Executable() }
