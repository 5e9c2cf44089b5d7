package launch

import (
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/proc"
)

// fleetServers are the tmux servers of the person's fleets, which every
// sweep of what an agent left spares (supervise.Config.Spare): a `+up`
// run from the agent's Bash tool leaves the fleet's server the child of
// the supervisor — or of the one-shot superclaude — that it detached
// under, and the fleet belongs to no agent.
func fleetServers() []proc.Identity {
	dir, err := config.FleetsDir()
	if err != nil {
		return nil
	}
	return fleet.Servers(dir)
}
