package launch

import (
	"fmt"
	"os"
	"time"

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
