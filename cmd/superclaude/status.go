package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/hosts"
	"github.com/superclaude/superclaude/internal/sessions"
)

// sessionsFlags adds --sessions and --fleet, which say which sessions
// directory a view reads.
func sessionsFlags(cmd *cobra.Command, dir, fleetFile *string) {
	cmd.Flags().StringVar(dir, "sessions", "", "the sessions directory (default: $"+envvar.SessionsDir+", else ./sessions when it exists, else your own)")
	cmd.Flags().StringVar(fleetFile, "fleet", "", "read the sessions directory of this fleet file")
}

// statusFlags are +status's.
type statusFlags struct {
	dir, fleetFile      string
	asJSON, here, local bool
	watch               time.Duration
}

// newStatusCmd is +status.
func newStatusCmd() *cobra.Command {
	var f statusFlags
	cmd := &cobra.Command{
		Use:   "+status",
		Short: "every session of yours, from any directory: pane, state, agent, lifecycle, context, cost, activity, restarts",
		Long: `List every session of yours, in every sessions directory superclaude knows,
wherever you run it: its pane, its state — running, stale (its supervisor
runs but did not answer within a second when asked) or stopped (its
supervisor is gone) —, what its agent does (busy, idle, NEEDS INPUT), its
lifecycle, flags (overflowed, restarting, a usage limit, HALTED), context,
cost, when it last showed activity and restarts. --here lists only the
current project's.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runStatus(c.OutOrStdout(), f) },
	}
	sessionsFlags(cmd, &f.dir, &f.fleetFile)
	hostsFlags(cmd, &f.local)
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&f.here, "here", false, "only the current project's sessions (./sessions, and those started in this directory)")
	cmd.Flags().DurationVar(&f.watch, "watch", 0, "refresh in place at this interval (e.g. 2s)")
	cmd.Flags().Lookup("watch").NoOptDefVal = "2s"
	return cmd
}

func runStatus(out io.Writer, f statusFlags) error {
	lessGC(f.watch <= 0)
	view, err := hosts.NewStatus(f.dir, f.fleetFile, f.here, f.local)
	if err != nil {
		return err
	}
	if f.watch <= 0 {
		return view.Write(out, f.asJSON)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	tick := time.NewTicker(f.watch)
	defer tick.Stop()
	for {
		// Redraw in place: home, clear, table.
		fmt.Fprint(out, "\x1b[H\x1b[2J")
		fmt.Fprintf(out, "superclaude +status — every %s, Ctrl-C to quit (superclaude +dashboard to act on them)\n\n", f.watch)
		if err := view.Write(out, f.asJSON); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-tick.C:
		}
	}
}

// lessGC makes the collector run less for a view that reads every session:
// what it allocates is nearly all live until the output is written, so
// collections in between found little and cost a tenth of a +status of
// 10,000 sessions. One that exits once it has written (once: not
// --watch) runs none, the last one cost 7 ms (issue 22). A memory limit
// still bounds the heap.
func lessGC(once bool) {
	debug.SetGCPercent(400)
	if once {
		debug.SetGCPercent(-1)
	}
	debug.SetMemoryLimit(512 << 20)
}

// whyFlags are +why's.
type whyFlags struct {
	dir, fleetFile, host           string
	asJSON, follow, verbose, local bool
}

// newWhyCmd is +why.
func newWhyCmd() *cobra.Command {
	var f whyFlags
	cmd := &cobra.Command{
		Use:   "+why [session]",
		Short: "what happened in a session, and why: every start, end and restart of its agent, who asked and why (default: this pane's session)",
		Long: `Print a session's event log as readable lines: every change of the
session, every start, end and restart of its agent, with why and who did
it. The session is a name or a session directory; with none, this agent's
session or this pane's.
-f follows the log as it grows; --verbose prints each event as recorded
(the actor, the reason, every changed field of .state.json with its old and
new value); --json prints the events as JSON, one per line.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runWhy(c, f, args) },
	}
	sessionsFlags(cmd, &f.dir, &f.fleetFile)
	hostFlags(cmd, &f.host, &f.local)
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the events as JSON, one per line")
	cmd.Flags().BoolVarP(&f.follow, "follow", "f", false, "keep printing events as they come")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "print each event as recorded: its actor, reason, and every changed field of .state.json with its old and new value")
	return cmd
}

func runWhy(c *cobra.Command, f whyFlags, args []string) error {
	sess, on, err := hosts.Why(f.dir, f.fleetFile, f.host, f.local, args)
	if on != "" {
		argv := append([]string{"+why"}, args...)
		if f.asJSON {
			argv = append(argv, "--json")
		}
		if f.follow {
			argv = append(argv, "--follow")
		}
		if f.verbose {
			argv = append(argv, "--verbose")
		}
		return runOnHost(c, on, argv)
	}
	if err != nil {
		return err
	}
	ctx := context.Background()
	if f.follow {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	return sessions.WriteEvents(ctx, sess, f.follow, cli.EventWriter(c.OutOrStdout(), f.asJSON, f.verbose))
}
