package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/sessions"
)

func newSessionRmCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "rm <session>",
		Short: "remove a session that nothing runs: its directory and everything in it",
		Long: `Remove a session: its directory and everything in it (its state, its saved
context, a skill's logs). The session is a name, as +status shows it, or a
session directory. A session whose supervisor, or the shell where it was
activated, still runs is never removed: stop it first. The event log keeps
its history (+why).`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runSessionRm(c.OutOrStdout(), dir, args[0]) },
	}
	cmd.Flags().StringVar(&dir, "sessions", "", "look for the session in this sessions directory only")
	return cmd
}

func runSessionRm(out io.Writer, dir, which string) error {
	sess, err := sessions.Remove(dir, which)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "removed session %s (%s)\n", sess.Name, sess.Dir)
	return nil
}

// pruneFlags are +session prune's.
type pruneFlags struct {
	dir, olderThan string
	yes            bool
}

func newSessionPruneCmd() *cobra.Command {
	var f pruneFlags
	cmd := &cobra.Command{
		Use:   "prune --older-than AGE [--yes]",
		Short: "list, and with --yes remove, the sessions nothing has happened in for AGE (7d, 2w, 36h)",
		Long: `List the sessions, in every sessions directory of yours (or the one --sessions
names), in which nothing has happened for longer than AGE — no activation,
heartbeat, start or exit of their agent — and that nothing runs. It removes
nothing unless --yes is given: then each is removed as +session rm removes
it, and one that came back to life meanwhile is left alone.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runSessionPrune(c.OutOrStdout(), f) },
	}
	cmd.Flags().StringVar(&f.olderThan, "older-than", "", "how long a session must have been idle: 7d, 2w, 36h")
	cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "remove them (without it, prune only lists what it would remove)")
	cmd.Flags().StringVar(&f.dir, "sessions", "", "only this sessions directory")
	return cmd
}

// runSessionPrune lists the idle sessions, and removes them with --yes.
func runSessionPrune(out io.Writer, f pruneFlags) error {
	if f.olderThan == "" {
		return errors.New("+session prune needs --older-than AGE (7d, 2w, 36h): how long a session must have been idle")
	}
	age, err := cli.ParseAge(f.olderThan)
	if err != nil {
		return fmt.Errorf("--older-than: %w", err)
	}
	now := time.Now()
	idle, running, err := sessions.Idle(f.dir, now.Add(-age))
	if err != nil {
		return err
	}
	if running > 0 {
		// Idle as +status counts it, but something runs them: said, so
		// that an idle ACTIVITY in +status is not left unexplained.
		defer fmt.Fprintf(out, "left alone: %s idle for more than %s that %s still running (stop %s first)\n",
			cli.Plural(running, "session", "sessions"), f.olderThan, map[bool]string{true: "is", false: "are"}[running == 1],
			map[bool]string{true: "it", false: "them"}[running == 1])
	}
	if len(idle) == 0 {
		fmt.Fprintf(out, "no session that nothing runs has been idle for more than %s\n", f.olderThan)
		return nil
	}
	if !f.yes {
		fmt.Fprintf(out, "%s idle for more than %s, that nothing runs (nothing removed; --yes removes them):\n",
			cli.Plural(len(idle), "session", "sessions"), f.olderThan)
	}
	removed := 0
	for _, s := range idle {
		line := fmt.Sprintf("  %s  last active %s", s.Dir, cli.Ago(s.Since, now))
		if !f.yes {
			fmt.Fprintln(out, line)
			continue
		}
		if err := sessions.Prune(s, "idle for more than "+f.olderThan); err != nil {
			fmt.Fprintf(out, "  %s  kept: %v\n", s.Dir, err)
			continue
		}
		removed++
		fmt.Fprintln(out, line+"  removed")
	}
	if f.yes {
		fmt.Fprintf(out, "removed %s\n", cli.Plural(removed, "session", "sessions"))
	}
	return nil
}
