package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// tmuxFlag adds --tmux-socket. The server a fleet command talks to is the
// flag's, else the fleet file's socket key, else $SUPERCLAUDE_TMUX_SOCKET,
// else tmux's default: the file names its fleet's server, so a general
// default in the environment does not send `+down FILE` to another one.
func tmuxFlag(cmd *cobra.Command, socket *string) {
	cmd.Flags().StringVar(socket, "tmux-socket", "", "the tmux server: a name (tmux -L) or, with a '/', a socket path (tmux -S); default: the fleet file's socket, else $"+envvar.TmuxSocket+", else tmux's default server")
}

func fleetServer(flag string, spec *fleet.Spec) tmux.Server {
	switch {
	case flag != "":
		return tmux.ParseSocket(flag)
	case spec != nil && spec.Socket != "":
		return tmux.ParseSocket(spec.Socket)
	}
	return tmux.ParseSocket(os.Getenv(envvar.TmuxSocket))
}

func upCommand() *cobra.Command {
	var socket string
	var attach bool
	cmd := &cobra.Command{
		Use:   "+up <fleet.toml>",
		Short: "start a fleet: a tmux session of windows and panes, each running one superclaude; on a fleet that is up, start the panes that are not running",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if clean, marked := fleet.Unmarked(os.Environ()); marked {
				// Run from inside an agent: start again without its
				// marks, so that nothing of the fleet belongs to it.
				if exe, err := os.Executable(); err == nil {
					return syscall.Exec(exe, os.Args, clean)
				}
			}
			spec, err := fleet.Load(args[0])
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			exe, _ = filepath.EvalSymlinks(exe)
			server := fleetServer(socket, spec)
			rem, err := fleetRemote()
			if err != nil {
				return err
			}
			rep, err := fleet.Up(spec, fleet.Options{Tmux: server, Exe: exe, Remote: rem})
			if err != nil && rep.Hosts == nil {
				// Nothing came up (a fleet across hosts fails part by
				// part: see below).
				return err
			}
			local := len(spec.Part("").Windows) > 0
			if dir, derr := config.FleetsDir(); derr == nil && local {
				if err := fleet.WriteRecord(dir, spec, server); err != nil {
					fmt.Fprintln(os.Stderr, "superclaude: could not record where the fleet runs (+down NAME will need --tmux-socket):", termtext.Clean(err.Error()))
				}
			}
			out := c.OutOrStdout()
			if local {
				fmt.Fprintf(out, "fleet %s is up: %s started, %d already running; sessions in %s\n",
					spec.Name, cli.Plural(rep.Started, "pane", "panes"), rep.Running, spec.SessionsDir())
				for _, wt := range rep.Worktrees {
					fmt.Fprintf(out, "new worktree %s\n", wt)
				}
			}
			for _, h := range rep.Hosts {
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
			if attach && local {
				return server.Attach(spec.Name, c.OutOrStdout())
			}
			if local {
				fmt.Fprintf(out, "attach: %s\n", remote.ShellLine(append(append([]string{"tmux"}, server.Flags()...), "attach", "-t", tmux.SessionTarget(spec.Name))))
			}
			for _, h := range rep.Hosts {
				if h.Host != "" {
					fmt.Fprintf(out, "attach on %s: %s\n", h.Host, remote.AttachLine(h.Host, append(append([]string{"tmux"}, h.Tmux...), "attach", "-t", tmux.SessionTarget(spec.Name))))
				}
			}
			return nil
		},
	}
	tmuxFlag(cmd, &socket)
	cmd.Flags().BoolVar(&attach, "attach", false, "then show the fleet: switch this tmux client to it, or attach outside tmux")
	return cmd
}

func downCommand() *cobra.Command {
	var socket string
	var grace time.Duration
	var cleanWorktrees, now bool
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
			name, file := args[0], ""
			var spec *fleet.Spec
			if fi, err := os.Stat(name); err == nil && !fi.IsDir() {
				if spec, err = fleet.Load(name); err != nil {
					return err
				}
				name, file = spec.Name, spec.File
			} else if cleanWorktrees {
				return fmt.Errorf("--clean-worktrees needs the fleet file, which says where the worktrees are")
			}
			out := c.OutOrStdout()
			server := fleetServer(socket, spec)
			records, _ := config.FleetsDir()
			if socket == "" && spec == nil {
				server = fleet.Locate(records, name, server)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			o := fleet.Options{Tmux: server, Grace: grace, Now: now}
			var rep fleet.DownReport
			var hosts []fleet.HostDown
			var err error
			if spec != nil && len(spec.Hosts()) > 0 {
				if o.Remote, err = fleetRemote(); err != nil {
					return err
				}
				rep, hosts, err = fleet.DownAll(ctx, spec, o)
			} else {
				rep, err = fleet.Down(ctx, name, file, o)
			}
			if err == nil || errors.Is(err, fleet.ErrNotUp) {
				fleet.RemoveRecord(records, name)
			}
			for _, h := range hosts {
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
			local := spec == nil || len(spec.Part("").Windows) > 0 || rep.Stopped+rep.Killed+rep.Foreign > 0
			switch {
			case errors.Is(err, fleet.ErrInterrupted):
				again := []string{"superclaude", "+down", args[0]}
				if socket != "" {
					again = append(again, "--tmux-socket", socket)
				}
				for _, line := range strings.Split(rep.Unfinished(name, remote.ShellLine(again)), "\n") {
					fmt.Fprintln(c.ErrOrStderr(), termtext.Clean(line))
				}
				return exitCode(130)
			case err == nil && !local:
			case err == nil:
				fmt.Fprintf(out, "fleet %s is down: %s stopped, %d killed\n", name, cli.Plural(rep.Stopped, "supervisor", "supervisors"), rep.Killed)
				if rep.Foreign > 0 {
					fmt.Fprintf(out, "kept the tmux session: %s in it %s not started by superclaude\n", cli.Plural(rep.Foreign, "pane", "panes"), map[bool]string{true: "was", false: "were"}[rep.Foreign == 1])
				}
			case errors.Is(err, fleet.ErrNotUp) && cleanWorktrees:
				fmt.Fprintf(out, "fleet %s is not up\n", name)
			default:
				return err
			}
			if !cleanWorktrees {
				return nil
			}
			notes, err := fleet.CleanWorktrees(spec)
			for _, n := range notes {
				fmt.Fprintln(out, n)
			}
			return err
		},
	}
	tmuxFlag(cmd, &socket)
	cmd.Flags().DurationVar(&grace, "grace", 0, "how long each supervisor gets to stop before it is killed (default 75s: a supervisor waits up to a minute for its agent to finish its turn; 10s with --now)")
	cmd.Flags().BoolVar(&now, "now", false, "stop every agent at once, even in the middle of a turn")
	cmd.Flags().BoolVar(&cleanWorktrees, "clean-worktrees", false, "then remove the panes' git worktrees and branches, keeping any that hold work")
	return cmd
}

func paneIDCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "+pane-id",
		Short: "print this pane's identity (tmux session:window:@pane_label, else the pane id; empty outside tmux)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			id, err := config.PaneID(context.Background())
			if err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), id)
			return nil
		},
	}
}

// viewStores opens what a view reads: the sessions directory --sessions or
// --fleet names, else every one of the user's. A fleet all on other hosts
// has no sessions here: none, and no error.
func viewStores(dir, fleetFile string) ([]*state.Store, error) {
	if fleetFile != "" {
		spec, err := fleet.Load(fleetFile)
		if err != nil {
			return nil, err
		}
		dir = spec.SessionsDir()
		if _, err := os.Stat(dir); err != nil && len(spec.Part("").Windows) == 0 {
			return nil, nil // a fleet all on other hosts: no sessions here
		}
	}
	return sessions.ViewStores(dir)
}

// sessionsFlags adds --sessions and --fleet, which say which sessions
// directory a view reads.
func sessionsFlags(cmd *cobra.Command, dir, fleetFile *string) {
	cmd.Flags().StringVar(dir, "sessions", "", "the sessions directory (default: $"+envvar.SessionsDir+", else ./sessions when it exists, else your own)")
	cmd.Flags().StringVar(fleetFile, "fleet", "", "read the sessions directory of this fleet file")
}

func statusCommand() *cobra.Command {
	var dir, fleetFile string
	var asJSON, here, local bool
	var watch time.Duration
	cmd := &cobra.Command{
		Use:   "+status",
		Short: "every session of yours, from any directory: pane, state, agent, lifecycle, context, cost, heartbeat, restarts",
		Long: `List every session of yours, in every sessions directory superclaude knows,
wherever you run it: its pane, its state — running, stale (its supervisor
runs but has written no heartbeat for 5 minutes) or stopped (its supervisor
is gone) —, what its agent does (busy, idle, NEEDS INPUT), its lifecycle,
flags (overflowed, restarting, a usage limit, HALTED), context, cost,
heartbeat and restarts. --here lists only the current project's.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			lessGC()
			stores, err := viewStores(dir, fleetFile)
			if err != nil {
				return err
			}
			keep := func(state.Session) bool { return true }
			if here {
				cwd, err := os.Getwd()
				if err != nil {
					return err
				}
				keep = func(s state.Session) bool {
					return s.Store.Root == filepath.Join(cwd, "sessions") || s.State.ProjectDir == cwd
				}
			}
			hosts, err := viewHosts(dir, fleetFile, here || local)
			if err != nil {
				return err
			}
			if watch <= 0 {
				return writeStatus(c.OutOrStdout(), stores, keep, asJSON, hosts)
			}
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(stop)
			tick := time.NewTicker(watch)
			defer tick.Stop()
			for {
				// Redraw in place: home, clear, table.
				fmt.Fprint(c.OutOrStdout(), "\x1b[H\x1b[2J")
				fmt.Fprintf(c.OutOrStdout(), "superclaude +status — every %s, Ctrl-C to quit (superclaude +dashboard to act on them)\n\n", watch)
				if err := writeStatus(c.OutOrStdout(), stores, keep, asJSON, hosts); err != nil {
					return err
				}
				select {
				case <-stop:
					return nil
				case <-tick.C:
				}
			}
		},
	}
	sessionsFlags(cmd, &dir, &fleetFile)
	hostsFlags(cmd, &local)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&here, "here", false, "only the current project's sessions (./sessions, and those started in this directory)")
	cmd.Flags().DurationVar(&watch, "watch", 0, "refresh in place at this interval (e.g. 2s)")
	cmd.Flags().Lookup("watch").NoOptDefVal = "2s"
	return cmd
}

// lessGC makes the collector run less for a view that reads every session
// and then exits: what it allocates is nearly all live until the output is
// written, so collections in between found little and cost a tenth of a
// +status of 10,000 sessions. A memory limit still bounds the heap.
func lessGC() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(512 << 20)
}

func writeStatus(w io.Writer, stores []*state.Store, keep func(state.Session) bool, asJSON bool, hosts *viewedHosts) error {
	// The other hosts are asked first, each in the background and for a
	// bounded time: a host that does not answer never holds up this
	// machine's rows by more than that.
	remote := hosts.views()
	views := sessions.LocalViews(stores, keep)
	views = append(views, <-remote...)
	if asJSON {
		return cli.WriteJSONArray(w, views)
	}
	if len(views) == 0 {
		_, err := fmt.Fprintln(w, "no sessions yet")
		return err
	}
	return cli.WriteTable(w, views, time.Now())
}

func whyCommand() *cobra.Command {
	var dir, fleetFile, host string
	var asJSON, follow, verbose, local bool
	cmd := &cobra.Command{
		Use:   "+why [session]",
		Short: "the session's event log as readable lines: every kill and restart, its reason and actor (default: this pane's session)",
		Long: `Print a session's event log as readable lines: every transition, kill,
restart and agent exit, with its cause, reason and actor. The session is a
name or a session directory; with none, this agent's session or this pane's.
-f follows the log as it grows; --verbose prints each event as recorded
(the actor, the reason, every changed field of .state.json with its old and
new value); --json prints the events as JSON, one per line.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var sess *state.Session
			var err error
			if host == "" {
				var stores []*state.Store
				if stores, err = viewStores(dir, fleetFile); err == nil {
					sess, err = sessions.WhySession(stores, args)
				}
			}
			if host != "" || errors.Is(err, state.ErrNoSession) && dir == "" && len(args) == 1 {
				on, herr := onHost(host, local, true, fleetFile, strings.Join(args, ""), false)
				if herr != nil {
					return herr
				}
				if on != "" {
					argv := append([]string{"+why"}, args...)
					if asJSON {
						argv = append(argv, "--json")
					}
					if follow {
						argv = append(argv, "--follow")
					}
					if verbose {
						argv = append(argv, "--verbose")
					}
					return runOnHost(c.Context(), on, argv, c.OutOrStdout(), c.ErrOrStderr())
				}
			}
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			print := func(ev state.Event) error {
				if asJSON {
					b, err := json.Marshal(ev)
					if err != nil {
						return err
					}
					_, err = fmt.Fprintf(out, "%s\n", b)
					return err
				}
				format := cli.FormatEvent
				if verbose {
					format = cli.FormatEventVerbose
				}
				_, err := fmt.Fprintln(out, format(ev))
				return err
			}
			evs, err := sess.Store.Events(sess.Name)
			if err != nil {
				return err
			}
			if len(evs) == 0 && !follow {
				return fmt.Errorf("no events for session %s in %s", sess.Name, sess.Store.Root)
			}
			for _, ev := range evs {
				if err := print(ev); err != nil {
					return err
				}
			}
			if !follow {
				return nil
			}
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(stop)
			seen := len(evs)
			tick := time.NewTicker(500 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return nil
				case <-tick.C:
				}
				evs, err := sess.Store.Events(sess.Name)
				if err != nil {
					return err
				}
				if len(evs) < seen {
					seen = 0 // the log was rotated
				}
				for _, ev := range evs[seen:] {
					if err := print(ev); err != nil {
						return err
					}
				}
				seen = len(evs)
			}
		},
	}
	sessionsFlags(cmd, &dir, &fleetFile)
	hostFlags(cmd, &host, &local)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the events as JSON, one per line")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing events as they come")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print each event as recorded: its actor, reason, and every changed field of .state.json with its old and new value")
	return cmd
}
