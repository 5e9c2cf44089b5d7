package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/dashboard"
	"github.com/superclaude/superclaude/internal/hosts"
)

// newDashboardCmd is +dashboard.
func newDashboardCmd() *cobra.Command {
	var o dashboard.Options
	var local bool
	cmd := &cobra.Command{
		Use:   "+dashboard",
		Short: "a live view of every session: attach to its pane, restart or stop its agent, see why it restarted",
		Long: `A live view of every session of the user, read from every sessions
directory superclaude knows, refreshed every --refresh:

  SESSION PANE STATE SKILL/PHASE CTX COST INPUT LIMIT RST LAST EVENT

STATE is running, stopped (its supervisor is gone) or stale (its
supervisor runs but did not answer within a second when asked).

Keys: ↑/↓ or j/k select · enter or a attach to the session's tmux pane ·
r restart its agent, resuming its conversation · f restart it with a fresh
context · s stop it (each asks first) · w why it restarted (+why) ·
? what every mark means · u refresh now · q quit.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runDashboard(c.Context(), o, local) },
	}
	f := cmd.Flags()
	f.DurationVar(&o.Refresh, "refresh", dashboard.DefaultRefresh, "how often to read the sessions again")
	// --stale-after set how old a heartbeat made a supervisor stale; a
	// supervisor writes none now (it is asked instead), and the flag is
	// kept so that the commands that give it still run.
	var staleAfter time.Duration
	f.DurationVar(&staleAfter, "stale-after", 0, "no longer used: a live supervisor that does not answer shows as stale")
	f.MarkDeprecated("stale-after", "a live supervisor that does not answer when asked shows as stale; it no longer writes a heartbeat")
	f.StringArrayVar(&o.Sessions, "sessions", nil, "read only this sessions directory (repeatable)")
	f.StringArrayVar(&o.TmuxSockets, "tmux-socket", nil, "also look for panes on this tmux server: a name (tmux -L) or a socket path (repeatable)")
	f.BoolVar(&local, "local", false, "only this machine's sessions, not those of the hosts your fleets run on")
	return cmd
}

func runDashboard(ctx context.Context, o dashboard.Options, local bool) error {
	if !local {
		o.Hosts = hosts.Dashboard()
	}
	return dashboard.Run(ctx, o)
}
