package launch

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/cli"
)

// configWait is how long a mistake in the config file holds the agent's
// start for the person to read it.
const configWait = 10 * time.Second

// sayConfigProblem tells the person of a mistake in their config file
// before the agent takes the terminal. Said and gone was not enough:
// claude clears the screen, scrollback too, as it starts, so a line
// printed just before it was never seen, and the README promises the
// mistake is said when superclaude starts. At a terminal, then, the line
// stays until the person presses a key, or configWait passes: seen
// reports a key, and the caller says it again after the agent's exit
// when it was not. Ctrl-C there means do not start (start false). In a
// fleet's pane (fleet), or without a terminal, nobody waits.
func sayConfigProblem(in, out *os.File, problem, agent string, fleet bool) (seen, start bool) {
	cli.Say(out, problem+"; notifications use the defaults until it is fixed (superclaude +doctor checks the file)")
	if fleet || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return false, true
	}
	fmt.Fprintf(out, "superclaude: press Enter to start %s now (it starts by itself in %d s; Ctrl-C does not start it) ", agent, int(configWait.Seconds()))
	key, ok := readKey(in, configWait)
	fmt.Fprint(out, "\r\n")
	if ok && key == 3 {
		cli.Say(out, agent+" was not started")
		return true, false
	}
	return ok, true
}

// readKey reads one key from the terminal in raw mode, waiting at most
// timeout; ok is false when none came. It waits with poll(2) and reads
// only a key that is there, so that no read is left pending to swallow
// the first key meant for the agent.
func readKey(in *os.File, timeout time.Duration) (key byte, ok bool) {
	fd := int(in.Fd())
	if old, err := term.MakeRaw(fd); err == nil {
		defer term.Restore(fd, old)
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return 0, false
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return 0, false
		}
		var b [1]byte
		if k, err := in.Read(b[:]); err != nil || k == 0 {
			return 0, false
		}
		return b[0], true
	}
}
