package fleet

import (
	"strings"

	"github.com/superclaude/superclaude/internal/envvar"
)

// agentMarks are the variables by which a process belongs to an agent:
// those a supervisor sets for its agent (its identity, the mark its sweeps
// find the agent's leftovers by; its socket; the pane and sessions of the
// agent), those that tell a superclaude started under an agent to step
// aside, a fleet's own mark, and those Claude Code sets for the commands
// it runs (CLAUDECODE=1 makes a claude refuse to start, taking itself for
// one nested in another).
var agentMarks = []string{
	envvar.Supervisor, envvar.SupervisorPID, envvar.WatchdogPID, envvar.Socket,
	envvar.PaneID, envvar.SessionsDir, envvar.LimitContinue,
	envvar.AgentFile, envvar.AgentParent, envvar.Depth,
	envvar.UserStatusLine, envvar.Fleet, envvar.ResumePolicy,
	"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PID", "CLAUDE_CODE_SESSION_ID",
	"CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE",
}

// Unmarked returns env without the marks of an agent (agentMarks), and
// whether it had any. A fleet belongs to no agent: `+up` run from inside a
// supervised claude (its Bash tool) used to start the fleet's tmux server
// with that claude's environment, and every pane inherited its
// supervisor's mark — so that supervisor's sweep, when its claude exited,
// killed the whole fleet mid-turn. +up runs itself again without them
// before it starts anything (its own process carried the mark too, and a
// pane's supervisor sweeping a dead supervisor's leftovers ended it).
func Unmarked(env []string) (clean []string, changed bool) {
	clean = make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		marked := false
		for _, m := range agentMarks {
			if k == m {
				marked = true
				break
			}
		}
		if marked {
			changed = true
			continue
		}
		clean = append(clean, kv)
	}
	return clean, changed
}
