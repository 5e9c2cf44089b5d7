package handover

import (
	"errors"
	"os"

	"github.com/superclaude/superclaude/internal/envvar"
)

// envvar.Depth counts the superclaudes, one inside the other, that started an
// agent: each adds one for the agents it starts (tooDeep). A person's
// nesting is a few deep (a skill's Bash running `superclaude -p` inside a
// supervised claude); a claude found on PATH that leads back to
// superclaude for ever is not. The pass-through catches that when the
// agent execs superclaude with the agent's arguments last; a script that
// runs superclaude as a child of its own (`superclaude "$@"`, no exec), or
// with arguments of its own after the agent's, is caught here, before it
// fills the machine with processes (a hostile tester's find: 18,000
// processes in 25 seconds).

// maxDepth is how deep superclaudes may nest.
const maxDepth = 6

// tooDeep reports whether this superclaude, about to run args, is nested
// maxDepth deep, recording why for main (PassThroughFailed); otherwise it
// counts itself in envvar.Depth for every agent it starts. Superclaude's own
// commands ('+') neither count nor are refused, but for the two that start
// an agent here, +run and +resume (a script installed as claude that runs
// `superclaude +run -- "$@"` nested for ever, a hostile tester found).
func tooDeep(args []string) bool {
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] == '+' && args[0] != "+run" && args[0] != "+resume" {
		return false
	}
	depth := 0
	for _, c := range os.Getenv(envvar.Depth) {
		if c < '0' || c > '9' {
			depth = 0 // not ours: start counting
			break
		}
		if depth = depth*10 + int(c-'0'); depth > maxDepth {
			break
		}
	}
	if depth >= maxDepth {
		passThroughErr = errors.New("superclaude is nested " + itoa(depth) + " deep in itself ($" + envvar.Depth +
			"): the agent it starts leads back to superclaude, a script or a wrapper that runs superclaude without exec, or with other arguments " +
			"(installed as claude, or given as $" + envvar.Agent + "?). Install superclaude as a link named claude, " +
			"and have a wrapper exec the real claude by its path")
		return true
	}
	os.Setenv(envvar.Depth, itoa(depth+1))
	return false
}
