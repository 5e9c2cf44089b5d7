package child

import (
	// The session leader (issue 9, item 3: job control): this program,
	// re-executed, leads the agent's session so that the agent can stop
	// on Ctrl-Z. The role runs from that package's init, before the rest
	// of the program initialises (see its doc).
	"github.com/superclaude/superclaude/child/internal/leader"
)

// withAgentParent is leader.WithAgentParent: the agent's parent, in the
// agent's environment.
var withAgentParent = leader.WithAgentParent

// leaderEnv is the session leader's whole environment: the role and its
// protocol's version; one processor (it only waits: fewer threads, less
// memory); and TERM=dumb, which keeps any package initialiser it shares
// with the supervisor from talking to the agent's pty (bubbletea v1's
// asked a terminal for its colours at init and waited up to 5 s).
var leaderEnv = []string{leader.Env + "=" + leader.Version, "GOMAXPROCS=1", "TERM=dumb"}
