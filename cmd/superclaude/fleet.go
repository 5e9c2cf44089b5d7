package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/fleet"
)

// tmuxFlag adds --tmux-socket: the server a fleet command talks to
// (fleet.Server).
func tmuxFlag(cmd *cobra.Command, socket *string) {
	cmd.Flags().StringVar(socket, "tmux-socket", "", "the tmux server: a name (tmux -L) or, with a '/', a socket path (tmux -S); default: the fleet file's socket, else $"+envvar.TmuxSocket+", else tmux's default server")
}

// upFlags are +up's.
type upFlags struct {
	socket string
	attach bool
}

// newUpCmd is +up.
func newUpCmd() *cobra.Command {
	var f upFlags
	cmd := &cobra.Command{
		Use:   "+up <fleet.toml>",
		Short: "start a fleet: a tmux session of windows and panes, each running one superclaude; on a fleet that is up, start the panes that are not running",
		Args:  cobra.ExactArgs(1),
		RunE:  func(c *cobra.Command, args []string) error { return runUp(c.OutOrStdout(), f, args[0]) },
	}
	tmuxFlag(cmd, &f.socket)
	cmd.Flags().BoolVar(&f.attach, "attach", false, "then show the fleet: switch this tmux client to it, or attach outside tmux")
	return cmd
}

func runUp(out io.Writer, f upFlags, file string) error {
	if clean, marked := fleet.Unmarked(os.Environ()); marked {
		// Run from inside an agent: start again without its marks, so
		// that nothing of the fleet belongs to it.
		if exe, err := os.Executable(); err == nil {
			return syscall.Exec(exe, os.Args, clean)
		}
	}
	up, err := fleet.Start(file, f.socket)
	if err != nil && up.Hosts == nil {
		// Nothing came up (a fleet across hosts fails part by part: see
		// below).
		return err
	}
	if up.Unrecorded != nil {
		cli.Say(os.Stderr, "could not record where the fleet runs (+down NAME will need --tmux-socket): "+up.Unrecorded.Error())
	}
	name := up.Spec.Name
	if up.Local {
		fmt.Fprintf(out, "fleet %s is up: %s started, %d already running; sessions in %s\n",
			name, cli.Plural(up.Started, "pane", "panes"), up.Running, up.Spec.SessionsDir())
		for _, wt := range up.Worktrees {
			fmt.Fprintf(out, "new worktree %s\n", wt)
		}
	}
	for _, h := range up.Hosts {
		if h.Host == "" {
			continue // it failed there: the error says so
		}
		fmt.Fprintf(out, "on %s: %s started, %d already running; sessions in %s there\n",
			h.Host, cli.Plural(h.Started, "pane", "panes"), h.Running, h.SessionsDir)
		for _, wt := range h.Worktrees {
			fmt.Fprintf(out, "new worktree %s on %s\n", wt, h.Host)
		}
	}
	if err != nil {
		return err
	}
	if f.attach && up.Local {
		return up.Server.Attach(name, out)
	}
	if up.Local {
		fmt.Fprintf(out, "attach: %s\n", fleet.AttachLine(up.Server, name))
	}
	for _, h := range up.Hosts {
		if h.Host != "" {
			fmt.Fprintf(out, "attach on %s: %s\n", h.Host, h.AttachLine(name))
		}
	}
	return nil
}

// downFlags are +down's.
type downFlags struct {
	socket              string
	grace               time.Duration
	cleanWorktrees, now bool
}

// newDownCmd is +down.
func newDownCmd() *cobra.Command {
	var f downFlags
	cmd := &cobra.Command{
		Use:   "+down <fleet.toml | fleet name>",
		Short: "stop a fleet in order: every supervisor stops its agent, then the tmux session goes",
		Long: `Stop a fleet in order: every supervisor stops its agent, then the tmux session goes.

Each supervisor lets its agent finish the turn it is in (a minute at most)
before it stops it; --now stops them at once.

+down acts only on a tmux session that +up created (it carries the
@superclaude_fleet option), and stops only the processes it verifies as that
fleet's supervisors. Panes someone else opened in the session are left
running, and the session with them.

--clean-worktrees then removes the git worktrees of the fleet's
worktree = true panes, and their branches, except a worktree holding
uncommitted or untracked files and a branch holding commits no other branch
has: those are kept, and named.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runDown(c.OutOrStdout(), c.ErrOrStderr(), f, args[0])
		},
	}
	tmuxFlag(cmd, &f.socket)
	cmd.Flags().DurationVar(&f.grace, "grace", 0, "how long each supervisor gets to stop before it is killed (default 75s: a supervisor waits up to a minute for its agent to finish its turn; 10s with --now)")
	cmd.Flags().BoolVar(&f.now, "now", false, "stop every agent at once, even in the middle of a turn")
	cmd.Flags().BoolVar(&f.cleanWorktrees, "clean-worktrees", false, "then remove the panes' git worktrees and branches, keeping any that hold work")
	return cmd
}

func runDown(out, stderr io.Writer, f downFlags, arg string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o := fleet.Options{Grace: f.grace, Now: f.now, Waiting: func(n int) {
		fmt.Fprintf(stderr, "waiting for %s to finish %s turn (a minute at most; Ctrl-C stops waiting, --now does not wait)\n",
			cli.Plural(n, "agent", "agents"), map[bool]string{true: "its", false: "their"}[n == 1])
	}}
	down, err := fleet.Stop(ctx, arg, f.socket, o, f.cleanWorktrees)
	name := down.Name
	for _, h := range down.Hosts {
		switch {
		case h.NotUp:
			fmt.Fprintf(out, "on %s: fleet %s was not up\n", h.Host, name)
		case h.Err == nil:
			fmt.Fprintf(out, "on %s: fleet %s is down: %s stopped, %d killed\n", h.Host, name, cli.Plural(h.Stopped, "supervisor", "supervisors"), h.Killed)
			if h.Foreign > 0 {
				fmt.Fprintf(out, "on %s: kept the tmux session: %s in it not started by superclaude\n", h.Host, cli.Plural(h.Foreign, "pane was", "panes were"))
			}
		}
	}
	switch {
	case errors.Is(err, fleet.ErrInterrupted):
		cli.WriteLines(stderr, down.Unfinished(name, fleet.Again(arg, f.socket)))
		return exitCode(130)
	case err == nil && !down.Local:
	case err == nil:
		fmt.Fprintf(out, "fleet %s is down: %s stopped, %d killed\n", name, cli.Plural(down.Stopped, "supervisor", "supervisors"), down.Killed)
		if down.Foreign > 0 {
			fmt.Fprintf(out, "kept the tmux session: %s in it %s not started by superclaude\n", cli.Plural(down.Foreign, "pane", "panes"), map[bool]string{true: "was", false: "were"}[down.Foreign == 1])
		}
	case errors.Is(err, fleet.ErrNotUp) && down.Known:
		// Down already: the person's wish holds. (A name that never was
		// a fleet's is an error, which says where it was looked for.) A
		// fleet all on other hosts has said so, host by host.
		if down.Local {
			fmt.Fprintf(out, "fleet %s is not up (nothing to stop)\n", name)
		}
	default:
		return err
	}
	if !f.cleanWorktrees {
		return nil
	}
	notes, err := fleet.CleanWorktrees(down.Spec)
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	return err
}
