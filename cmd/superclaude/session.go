package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/state"
)

func sessionCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "+session",
		Short: "read and change session state (replaces session.sh)",
		Long: `Session state lives in a sessions directory: $SUPERCLAUDE_SESSIONS_DIR
when set, else ./sessions when it exists, else ~/.local/state/superclaude/sessions;
one directory per session holding .state.json. Commands other than activate,
list and show act on this pane's session, or the session of the supervisor
named by $CLAUDE_SUPERVISOR_PID, unless --session names one.`,
		// An unknown subcommand is an error, as an unknown +command is,
		// not the help with exit 0.
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			return unknownCommand(c, args[0])
		},
	}
	var which string
	var asJSON bool
	cmd.PersistentFlags().StringVar(&which, "session", "", "act on this session (name or path) instead of looking it up")

	print := func(w io.Writer, sess *state.Session) error {
		if asJSON {
			return cli.WriteJSON(w, map[string]any{"name": sess.Name, "dir": sess.Dir, "state": sess.State})
		}
		_, err := fmt.Fprintln(w, sess.Dir)
		return err
	}
	// onFound runs op on the session findSession picks and prints it.
	onFound := func(actor string, op func(s *state.Store, name string) (*state.State, error)) func(*cobra.Command, []string) error {
		return func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session " + actor)
			if err != nil {
				return err
			}
			sess, err := sessions.Find(s, which)
			if err != nil {
				return err
			}
			st, err := op(sess.Store, sess.Name)
			if err != nil {
				return err
			}
			sess.State = st
			return print(c.OutOrStdout(), sess)
		}
	}

	activate := &cobra.Command{
		Use:   "activate <dir> [skill]",
		Short: "create or take over a session for a skill (default: the session's own), owned by this supervisor and pane",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session activate")
			if err != nil {
				return err
			}
			store, name, err := sessions.ActivateTarget(s, args[0])
			if err != nil {
				return err
			}
			owner, err := config.Owner()
			if err != nil {
				return err
			}
			skill := ""
			if len(args) == 2 {
				skill = args[1]
			} else if cur, err := store.Load(name); err == nil {
				skill = cur.Skill
			}
			pane, err := config.PaneID(context.Background())
			if err != nil {
				fmt.Fprintln(os.Stderr, "superclaude:", err)
			}
			cwd, _ := os.Getwd()
			caller := state.Caller{Owner: owner, Pane: pane, ProjectDir: cwd}
			st, err := store.Activate(name, skill, caller)
			var corrupt *state.Error
			if errors.As(err, &corrupt) {
				// The bad file is kept aside; activate starts fresh.
				fmt.Fprintln(os.Stderr, "superclaude:", err)
				st, err = store.Activate(name, skill, caller)
			}
			if err != nil {
				return err
			}
			if _, serr := config.Supervisor(); errors.Is(serr, config.ErrNoSupervisor) && term.IsTerminal(int(os.Stderr.Fd())) {
				// A person typing it in a plain shell: the seeds' rule
				// makes the shell the owner, which +status shows as
				// running. Say what that means; a skill's Bash has no
				// terminal and is not told.
				fmt.Fprintf(os.Stderr, "superclaude: no supervisor here: this shell (pid %d) now holds session %s until it exits. "+
					"Nothing restarts an agent in it, and a superclaude started in this pane meanwhile starts a session of its own; "+
					"restarts and the overflow guard need claude started as superclaude (then the agent activates the session)\n", owner.PID, name)
			}
			return print(c.OutOrStdout(), &state.Session{Name: name, Dir: filepath.Join(store.Root, name), State: st})
		},
	}
	find := &cobra.Command{
		Use:   "find",
		Short: "print this pane's or this supervisor's session directory (read-only)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session find")
			if err != nil {
				return err
			}
			sess, err := sessions.Find(s, which)
			if err != nil {
				return err
			}
			return print(c.OutOrStdout(), sess)
		},
	}
	phase := &cobra.Command{
		Use:   "phase <name>",
		Short: "record the current phase (clears loading, resets heartbeat counters)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return onFound("phase", func(s *state.Store, name string) (*state.State, error) {
				return s.Phase(name, args[0])
			})(c, args)
		},
	}
	var keywords string
	deactivate := &cobra.Command{
		Use:   "deactivate",
		Short: "mark the session completed; a description is read from stdin",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			desc, err := readStdinIfPiped(c.InOrStdin())
			if err != nil {
				return err
			}
			return onFound("deactivate", func(s *state.Store, name string) (*state.State, error) {
				return s.Deactivate(name, desc, keywords)
			})(c, args)
		},
	}
	deactivate.Flags().StringVar(&keywords, "keywords", "", "comma-separated search keywords")
	var now, restartLocal bool
	var restartHost string
	restart := &cobra.Command{
		Use:   "restart",
		Short: "ask the session's supervisor for an overflow restart: it kills the agent and starts it fresh with /superclaude:session continue",
		Long: `Ask the live supervisor that owns the session (this agent's own, or the one
--session names, from any shell of the same user) to restart its agent: the
supervisor saves the agent's context (DEHYDRATED_CONTEXT.md, unless the agent
just wrote it), records the restart in the session's state, kills the agent
from outside and starts it fresh with the continuation prompt. When no live
supervisor owns the session, nothing is written.

Asked from outside the agent, the restart waits for claude to finish the
turn it is in (a minute at most); --now restarts at once.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session restart")
			if err != nil {
				return err
			}
			var sess *state.Session
			if restartHost == "" {
				sess, err = sessions.Find(s, which)
			}
			if restartHost != "" || errors.Is(err, state.ErrNoSession) {
				on, herr := onHost(restartHost, restartLocal, true, "", which, false)
				if herr != nil {
					return herr
				}
				if on != "" {
					argv := []string{"+session", "restart", "--session", which}
					if now {
						argv = append(argv, "--now")
					}
					if asJSON {
						argv = append(argv, "--json")
					}
					return runOnHost(c.Context(), on, argv, c.OutOrStdout(), c.ErrOrStderr())
				}
			}
			if err != nil {
				return err
			}
			// The agent's own request (its Bash tool runs this under the
			// session's own supervisor) goes at once: it asks for itself.
			own := false
			if sup, err := config.Supervisor(); err == nil && state.OwnedBy(sess.State, sup) {
				own = true
			}
			ans, err := sessions.RequestRestart(sess, "superclaude +session restart", "", now || own, own)
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteJSON(c.OutOrStdout(), ans)
			}
			switch {
			case ans.Waiting:
				fmt.Fprintf(c.ErrOrStderr(), "superclaude: the agent is in the middle of a turn; the supervisor (pid %d) restarts session %s when it ends, in a minute at most (--now restarts at once)\n",
					sess.State.PID, ans.Session)
			case ans.Resume:
				fmt.Fprintf(c.ErrOrStderr(), "superclaude: the supervisor (pid %d) is restarting session %s's agent on its conversation: nothing saved its context for a fresh start\n",
					sess.State.PID, ans.Session)
			default:
				fmt.Fprintf(c.ErrOrStderr(), "superclaude: the supervisor (pid %d) is restarting session %s; the fresh agent starts with: %s\n",
					sess.State.PID, ans.Session, ans.Prompt)
			}
			if ans.TurnUnknown {
				fmt.Fprintln(c.ErrOrStderr(), "superclaude: the agent's CLI does not tell whether it is in the middle of a turn, so the restart did not wait for one to end")
			}
			_, err = fmt.Fprintln(c.OutOrStdout(), ans.Dir)
			return err
		},
	}
	restart.Flags().BoolVar(&now, "now", false, "restart at once, even in the middle of a turn")
	hostFlags(restart, &restartHost, &restartLocal)
	update := &cobra.Command{
		Use:   "update key=value…",
		Short: "set fields (values are JSON when they parse as the field's type, else strings)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return onFound("update", func(s *state.Store, name string) (*state.State, error) {
				return s.Set(name, args)
			})(c, args)
		},
	}
	target := &cobra.Command{
		Use:   "target <file>",
		Short: "set the file the status line shows",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return onFound("target", func(s *state.Store, name string) (*state.State, error) {
				return s.Target(name, args[0])
			})(c, args)
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "list the sessions of this sessions directory (+status lists every one of yours)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session list")
			if err != nil {
				return err
			}
			return writeStatus(c.OutOrStdout(), []*state.Store{s}, func(state.Session) bool { return true }, asJSON, nil)
		},
	}
	show := &cobra.Command{
		Use:   "show [session]",
		Short: "print a session's state file",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session show")
			if err != nil {
				return err
			}
			w := which
			if len(args) == 1 {
				w = args[0]
			}
			sess, err := sessions.Find(s, w)
			if err != nil {
				return err
			}
			if asJSON {
				return print(c.OutOrStdout(), sess)
			}
			b, err := sess.State.MarshalJSON()
			if err != nil {
				return err
			}
			_, err = c.OutOrStdout().Write(b)
			return err
		},
	}
	reset := &cobra.Command{
		Use:   "reset",
		Short: "re-arm the progress breaker of a halted session, so that it is resumed and restarted again",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return onFound("reset", func(s *state.Store, name string) (*state.State, error) {
				return s.Reset(name)
			})(c, args)
		},
	}
	reindex := &cobra.Command{
		Use:   "reindex",
		Short: "rebuild the pane and supervisor lookup index from the state files",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := sessions.OpenStore("session reindex")
			if err != nil {
				return err
			}
			return s.Reindex()
		},
	}
	for _, sub := range []*cobra.Command{activate, find, phase, deactivate, restart, update, target, list, show, reset} {
		sub.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	}
	cmd.AddCommand(activate, find, phase, deactivate, restart, update, target, list, show, reset, reindex,
		newSessionRmCmd(), newSessionPruneCmd())
	return cmd
}

// readStdinIfPiped reads a description from stdin unless stdin is a
// terminal (a person typing would otherwise be left waiting).
func readStdinIfPiped(r io.Reader) (string, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return "", nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	return string(b), err
}
