package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
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
		RunE: func(c *cobra.Command, args []string) error {
			stores, err := sessions.ViewStores(dir)
			if err != nil {
				return err
			}
			sess, err := sessions.FindIn(stores, args[0])
			if err != nil {
				return err
			}
			sess.Store.Actor = "session rm"
			if err := removeSession(sess.Store, sess.Name, "asked for by name"); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "removed session %s (%s)\n", sess.Name, sess.Dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "sessions", "", "look for the session in this sessions directory only")
	return cmd
}

func newSessionPruneCmd() *cobra.Command {
	var dir, olderThan string
	var yes bool
	cmd := &cobra.Command{
		Use:   "prune --older-than AGE [--yes]",
		Short: "list, and with --yes remove, the sessions nothing has happened in for AGE (7d, 2w, 36h)",
		Long: `List the sessions, in every sessions directory of yours (or the one --sessions
names), in which nothing has happened for longer than AGE — no activation,
heartbeat, start or exit of their agent — and that nothing runs. It removes
nothing unless --yes is given: then each is removed as +session rm removes
it, and one that came back to life meanwhile is left alone.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if olderThan == "" {
				return errors.New("+session prune needs --older-than AGE (7d, 2w, 36h): how long a session must have been idle")
			}
			age, err := cli.ParseAge(olderThan)
			if err != nil {
				return fmt.Errorf("--older-than: %w", err)
			}
			stores, err := sessions.ViewStores(dir)
			if err != nil {
				return err
			}
			now := time.Now()
			var idle []state.Idle
			for _, s := range stores {
				found, err := s.Prunable(now.Add(-age))
				if err != nil {
					fmt.Fprintf(os.Stderr, "superclaude: sessions directory %s: %v\n", s.Root, err)
					continue
				}
				idle = append(idle, found...)
			}
			return prune(c.OutOrStdout(), idle, olderThan, yes, now)
		},
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "", "how long a session must have been idle: 7d, 2w, 36h")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove them (without it, prune only lists what it would remove)")
	cmd.Flags().StringVar(&dir, "sessions", "", "only this sessions directory")
	return cmd
}

// prune lists idle, and removes them when yes.
func prune(out io.Writer, idle []state.Idle, age string, yes bool, now time.Time) error {
	if len(idle) == 0 {
		fmt.Fprintf(out, "no session has been idle for more than %s\n", age)
		return nil
	}
	if !yes {
		fmt.Fprintf(out, "%s idle for more than %s, that nothing runs (nothing removed; --yes removes them):\n",
			cli.Plural(len(idle), "session", "sessions"), age)
	}
	removed := 0
	for _, s := range idle {
		line := fmt.Sprintf("  %s  last active %s", s.Dir, cli.Ago(s.Since, now))
		if !yes {
			fmt.Fprintln(out, line)
			continue
		}
		s.Store.Actor = "session prune"
		if err := removeSession(s.Store, s.Name, "idle for more than "+age); err != nil {
			fmt.Fprintf(out, "  %s  kept: %v\n", s.Dir, err)
			continue
		}
		removed++
		fmt.Fprintln(out, line+"  removed")
	}
	if yes {
		fmt.Fprintf(out, "removed %s\n", cli.Plural(removed, "session", "sessions"))
	}
	return nil
}

// removeSession removes a session nothing runs, saying in words why a live
// one is kept.
func removeSession(s *state.Store, name, reason string) error {
	me, err := proc.Self()
	if err != nil {
		return err
	}
	err = s.Remove(name, reason, me)
	if !errors.Is(err, state.ErrLive) {
		return err
	}
	st, lerr := s.Load(name)
	if lerr != nil {
		return err
	}
	if sessions.HasControlSocket(st.PID) {
		return fmt.Errorf("session %s is running under superclaude pid %d: stop it first (the dashboard's s, or +down for a fleet)", name, st.PID)
	}
	return fmt.Errorf("session %s is held by pid %d, the shell where it was activated by hand: it is released when that shell exits", name, st.PID)
}
