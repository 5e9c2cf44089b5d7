package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/hosts"
)

// newRemoteCmd is `superclaude +remote`, which superclaude on another
// machine runs here over ssh: it answers the one request on its standard
// input (hosts.Serve). Hidden: people never type it.
func newRemoteCmd() *cobra.Command {
	return &cobra.Command{
		Use:    hosts.ServeCommand,
		Short:  "answer one request of superclaude on another machine, over ssh (not typed by people)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE:   func(c *cobra.Command, args []string) error { return runRemote(c.OutOrStdout()) },
	}
}

func runRemote(out io.Writer) error {
	if term.IsTerminal(int(os.Stdin.Fd())) {
		return fmt.Errorf("%s answers superclaude on another machine, over ssh; it is not typed by people (see Fleets across hosts in the README)", hosts.ServeCommand)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return hosts.Serve(ctx, os.Stdin, out)
}

// runOnHost runs argv, a command another host runs for this one, on host,
// printing what it prints; its exit code, when not 0, is this command's.
func runOnHost(c *cobra.Command, host string, argv []string) error {
	code, err := hosts.Run(c.Context(), host, argv, c.OutOrStdout(), c.ErrOrStderr())
	switch {
	case err != nil:
		return err
	case code != 0:
		return exitCode(code)
	}
	return nil
}

// hostsFlags adds --local and --host-timeout, the flags of a view that
// covers the fleets' other hosts.
func hostsFlags(cmd *cobra.Command, local *bool) {
	cmd.Flags().BoolVar(local, "local", false, "only this machine's sessions, not those of the hosts your fleets run on")
	cmd.Flags().DurationVar(&hosts.Timeout, "host-timeout", hosts.Timeout, "how long to wait for each other host's answer")
}

// hostFlags adds --host and --local to a command that looks a session up.
func hostFlags(cmd *cobra.Command, host *string, local *bool) {
	cmd.Flags().StringVar(host, "host", "", "the host the session is on (an ssh destination a fleet of yours runs on); default: this machine, else the one host that has it")
	cmd.Flags().BoolVar(local, "local", false, "only this machine's sessions")
}
