package launch

import (
	"os"
	"time"

	"golang.org/x/term"
)

// The questions superclaude asks before the agent owns the terminal (resume
// or not, a config file's mistake seen) read the terminal so.

// readKey reads one key from the terminal in raw mode, waiting at most
// timeout; ok is false when none came. It waits with poll(2) (waitInput)
// and reads only a key that is there, so that no read is left pending to
// swallow the first key meant for the agent.
func readKey(in *os.File, timeout time.Duration) (key byte, ok bool) {
	defer rawMode(in)()
	if !waitInput(int(in.Fd()), timeout) {
		return 0, false
	}
	var b [1]byte
	if k, err := in.Read(b[:]); err != nil || k == 0 {
		return 0, false
	}
	return b[0], true
}

// rawMode puts the terminal in raw mode, and returns what restores it.
func rawMode(in *os.File) func() {
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return func() {}
	}
	return func() { term.Restore(fd, old) }
}
