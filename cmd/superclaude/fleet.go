package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/supervise"
)

const envTmuxSocket = "SUPERCLAUDE_TMUX_SOCKET"

func init() {
	fleet.SetAgents(func(name string) bool { _, ok := supervise.Profiles[name]; return ok })
}

func tmuxFlag(cmd *cobra.Command, socket *string) {
	*socket = os.Getenv(envTmuxSocket)
	cmd.Flags().StringVar(socket, "tmux-socket", *socket, "the tmux server's socket (tmux -S; $"+envTmuxSocket+"); default: the default server")
}

func upCommand() *cobra.Command {
	var socket string
	var attach bool
	cmd := &cobra.Command{
		Use:   "+up <fleet.toml>",
		Short: "start a fleet: a tmux session of windows and panes, each running one superclaude",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			spec, err := fleet.Load(args[0])
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			exe, _ = filepath.EvalSymlinks(exe)
			server := tmux.Server{Socket: socket}
			if err := fleet.Up(spec, fleet.Options{Tmux: server, Exe: exe}); err != nil {
				return err
			}
			attachArgs := []string{"attach", "-t", "=" + spec.Name}
			if socket != "" {
				attachArgs = append([]string{"-S", socket}, attachArgs...)
			}
			if attach {
				t := exec.Command("tmux", attachArgs...)
				t.Stdin, t.Stdout, t.Stderr = os.Stdin, os.Stdout, os.Stderr
				return t.Run()
			}
			n := 0
			for _, w := range spec.Windows {
				n += len(w.Panes)
			}
			fmt.Fprintf(c.OutOrStdout(), "fleet %s is up: %d panes, sessions in %s\nattach: tmux %s\n",
				spec.Name, n, spec.SessionsDir(), strings.Join(attachArgs, " "))
			return nil
		},
	}
	tmuxFlag(cmd, &socket)
	cmd.Flags().BoolVar(&attach, "attach", false, "attach to the fleet's tmux session once it is up")
	return cmd
}

func downCommand() *cobra.Command {
	var socket string
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "+down <fleet.toml | fleet name>",
		Short: "stop a fleet in order: every supervisor stops its agent, then the tmux session goes",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			name := args[0]
			if _, err := os.Stat(name); err == nil {
				spec, err := fleet.Load(name)
				if err != nil {
					return err
				}
				name = spec.Name
			}
			rep, err := fleet.Down(name, fleet.Options{Tmux: tmux.Server{Socket: socket}, Grace: grace})
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "fleet %s is down: %d supervisors stopped, %d killed\n", name, rep.Stopped, rep.Killed)
			return nil
		},
	}
	tmuxFlag(cmd, &socket)
	cmd.Flags().DurationVar(&grace, "grace", 10*time.Second, "how long each supervisor gets to stop before it is killed")
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

// sessionsFlags adds --sessions and --fleet, which say which sessions
// directory a view reads.
func sessionsFlags(cmd *cobra.Command, dir, fleetFile *string) {
	cmd.Flags().StringVar(dir, "sessions", "", "the sessions directory (default: $"+config.EnvSessionsDir+" or ./sessions)")
	cmd.Flags().StringVar(fleetFile, "fleet", "", "read the sessions directory of this fleet file")
}

func viewStore(dir, fleetFile string) (*state.Store, error) {
	switch {
	case fleetFile != "":
		spec, err := fleet.Load(fleetFile)
		if err != nil {
			return nil, err
		}
		dir = spec.SessionsDir()
	case dir == "":
		d, err := config.SessionsDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	s, err := state.OpenExisting(dir)
	if err != nil {
		return nil, fmt.Errorf("no sessions directory: %w", err)
	}
	s.Report = func(err error) { fmt.Fprintln(os.Stderr, "superclaude: skipping:", err) }
	return s, nil
}

func statusCommand() *cobra.Command {
	var dir, fleetFile string
	var asJSON bool
	var watch time.Duration
	cmd := &cobra.Command{
		Use:   "+status",
		Short: "every session: pane, owner (verified alive), lifecycle, overflow, context, heartbeat, restarts",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := viewStore(dir, fleetFile)
			if err != nil {
				return err
			}
			if watch <= 0 {
				return writeStatus(c.OutOrStdout(), s, asJSON)
			}
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(stop)
			tick := time.NewTicker(watch)
			defer tick.Stop()
			for {
				// Redraw in place: home, clear, table.
				fmt.Fprint(c.OutOrStdout(), "\x1b[H\x1b[2J")
				fmt.Fprintf(c.OutOrStdout(), "superclaude +status — %s — every %s, Ctrl-C to quit\n\n", s.Root, watch)
				if err := writeStatus(c.OutOrStdout(), s, asJSON); err != nil {
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().DurationVar(&watch, "watch", 0, "refresh in place at this interval (e.g. 2s)")
	cmd.Flags().Lookup("watch").NoOptDefVal = "2s"
	return cmd
}

func writeStatus(w io.Writer, s *state.Store, asJSON bool) error {
	sessions, err := s.List()
	if err != nil {
		return err
	}
	views := make([]cli.SessionView, 0, len(sessions))
	for _, sess := range sessions {
		views = append(views, cli.View(sess, state.OwnerAlive(sess.State)))
	}
	if asJSON {
		return cli.WriteJSON(w, views)
	}
	return cli.WriteTable(w, views, time.Now())
}

func whyCommand() *cobra.Command {
	var dir, fleetFile string
	cmd := &cobra.Command{
		Use:   "+why <session>",
		Short: "the session's event log as readable lines: every kill and restart, its reason and actor",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			s, err := viewStore(dir, fleetFile)
			if err != nil {
				return err
			}
			name, err := s.NameFromArg(args[0])
			if err != nil {
				return err
			}
			evs, err := s.Events(name)
			if err != nil {
				return err
			}
			if len(evs) == 0 {
				return fmt.Errorf("no events for session %s in %s", name, s.Root)
			}
			for _, ev := range evs {
				fmt.Fprintln(c.OutOrStdout(), cli.FormatEvent(ev))
			}
			return nil
		},
	}
	sessionsFlags(cmd, &dir, &fleetFile)
	return cmd
}
