package supervise

import (
	"strconv"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// OwnVariables are the variables the supervisor of cfg, whose identity
// is self and whose control socket is socket, sets in its agent's
// environment, replacing any inherited from an outer superclaude: who
// supervises it, where to reach it, its pane, its sessions directory
// (when it has a store) and whether it goes on after a limit. A program
// that must name them before the run (superclaude writes them into
// claude's settings, so that a repository's settings cannot change them
// for claude's hooks) gets the same values the agent will.
func OwnVariables(cfg Config, self proc.Identity, socket string) map[string]string {
	set := map[string]string{
		envvar.SupervisorPID: strconv.Itoa(self.PID),
		envvar.WatchdogPID:   strconv.Itoa(self.PID),
		envvar.Supervisor:    self.String(),
		envvar.Socket:        socket,
		envvar.PaneID:        cfg.Pane,
		envvar.LimitContinue: "1",
	}
	if cfg.Policy == (Policy{}) {
		cfg.Policy = DefaultPolicy
	}
	if !cfg.Policy.LimitContinue {
		set[envvar.LimitContinue] = "0"
	}
	if cfg.Store != nil {
		set[envvar.SessionsDir] = cfg.Store.Root
	}
	return set
}
