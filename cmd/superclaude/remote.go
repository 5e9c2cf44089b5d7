package main

import (
	"context"
	"encoding/json"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/tmux"
)

// remoteCommand is `superclaude +remote`, which superclaude on another
// machine runs here over ssh: it answers the one request on its standard
// input (internal/remote). Hidden: people never type it.
func remoteCommand() *cobra.Command {
	return &cobra.Command{
		Use:    remote.ServeCommand,
		Short:  "answer one request of superclaude on another machine, over ssh (not typed by people)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			ops, err := hostOps()
			if err != nil {
				return err
			}
			return remote.Serve(ctx, os.Stdin, c.OutOrStdout(), Version(), ops)
		},
	}
}

// hostOps are the requests this machine answers for superclaude on
// another one.
func hostOps() (map[string]remote.Handler, error) {
	st, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	exe, _ = filepath.EvalSymlinks(exe)
	side := fleet.HostSide{StateDir: st, Exe: exe, Server: func(s *fleet.Spec) tmux.Server { return fleetServer("", s) }}
	return map[string]remote.Handler{
		fleet.OpUp: func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
			var a fleet.UpArgs
			if err := remote.Args(raw, &a); err != nil {
				return err
			}
			r, err := side.Up(a)
			if err != nil {
				return err
			}
			return emit(r)
		},
		fleet.OpDown: func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
			var a fleet.DownArgs
			if err := remote.Args(raw, &a); err != nil {
				return err
			}
			r, err := side.Down(a)
			if err != nil {
				return err
			}
			return emit(r)
		},
	}, nil
}

// fleetRemote is how +up and +down reach a fleet's other hosts.
func fleetRemote() (*fleet.Remote, error) {
	st, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	return &fleet.Remote{SSH: &remote.SSH{}, Version: Version(),
		Hosts: remote.Hosts{File: filepath.Join(st, remote.HostsFile)}}, nil
}
