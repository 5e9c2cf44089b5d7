package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/agentside"
)

// newStatusLineCmd is `+statusline`, which Claude Code runs for its status
// line (internal/agentside).
func newStatusLineCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "+statusline",
		Short: "Claude Code's status line (run by claude, not by you): records claude's conversation and context in its session, and prints the line",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runStatusLine(c.InOrStdin(), c.OutOrStdout())
		},
	}
}

// runStatusLine prints one line, whatever happened: claude's UI gets a
// line and exit 0. The plain form is answered before main, by
// internal/callback, with the same function.
func runStatusLine(stdin io.Reader, stdout io.Writer) error {
	agentside.RunStatusLine(stdin, stdout)
	return nil
}

// newHookCmd is `+hook EVENT`, which Claude Code runs for its hooks.
func newHookCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "+hook <event>",
		Short:     "Claude Code's hooks (run by claude, not by you): " + strings.Join(agentside.HookNames(), ", "),
		Args:      cobra.ExactArgs(1),
		ValidArgs: agentside.HookNames(),
		RunE: func(c *cobra.Command, args []string) error {
			return runHook(args[0], c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr())
		},
	}
}

// runHook answers one hook; its exit code is what the answer says. The
// plain form is answered before main, by internal/callback, with the same
// function.
func runHook(event string, stdin io.Reader, stdout, stderr io.Writer) error {
	if code := agentside.Hook(event, stdin, stdout, stderr); code != 0 {
		return exitCode(code)
	}
	return nil
}

// newLogCmd is `+log`: a skill's note appended to its session's log.
func newLogCmd() *cobra.Command {
	var file, which string
	cmd := &cobra.Command{
		Use:   "+log",
		Short: "append stdin to the session's log file (it counts as logging: the reminders to log wait again)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runLog(file, which, c.InOrStdin(), c.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "log file (default: the session's target file, else <SKILL>_LOG.md in the session directory)")
	cmd.Flags().StringVar(&which, "session", "", "log to this session (name or path) instead of this agent's")
	return cmd
}

func runLog(file, which string, stdin io.Reader, stdout io.Writer) error {
	path, err := agentside.Log(string(agentside.ReadPayload(stdin)), file, which)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, path)
	return err
}

// newPaneIDCmd is `+pane-id`, which a skill runs to learn its pane.
func newPaneIDCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "+pane-id",
		Short: "print how superclaude knows this tmux pane: session:window:label for a labelled pane (a fleet's), else %N@<tmux socket>@<server start>; nothing outside tmux",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, args []string) error { return runPaneID(c.OutOrStdout()) },
	}
}

func runPaneID(out io.Writer) error {
	id, err := agentside.PaneID()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, id)
	return err
}
