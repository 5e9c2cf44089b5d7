package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/state"
)

// openStore opens the sessions directory, reporting skipped corrupt files
// on stderr. actor names the command in the event log.
func openStore(actor string) (*state.Store, error) {
	return openStoreWith(state.Open, actor)
}

// openExistingStore is openStore for commands claude runs in any project
// (status line, hooks, +log): they never create a sessions directory.
func openExistingStore(actor string) (*state.Store, error) {
	return openStoreWith(state.OpenExisting, actor)
}

func openStoreWith(open func(string) (*state.Store, error), actor string) (*state.Store, error) {
	dir, err := config.SessionsDir()
	if err != nil {
		return nil, err
	}
	s, err := open(dir)
	if err != nil {
		return nil, err
	}
	s.Actor = actor
	s.Report = func(err error) { fmt.Fprintln(os.Stderr, "superclaude: skipping:", err) }
	return s, nil
}

// findSession is `session find`: the session named by --session, else
// this pane's, else the live supervisor's (seed 000 §2).
func findSession(s *state.Store, named string) (*state.Session, error) {
	if named != "" {
		name, err := s.NameFromArg(named)
		if err != nil {
			return nil, err
		}
		st, err := s.Load(name)
		if err != nil {
			return nil, err
		}
		return &state.Session{Name: name, Dir: s.Root + "/" + name, State: st}, nil
	}
	pane, err := config.PaneID(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "superclaude:", err)
	}
	pid := 0
	if id, err := config.Owner(); err == nil {
		pid = id.PID
	}
	sess, err := s.Find(pane, pid)
	if errors.Is(err, state.ErrNotFound) {
		return nil, fmt.Errorf("no session for this pane (%q) or supervisor (pid %d) under %s", pane, pid, s.Root)
	}
	return sess, err
}

func sessionCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "+session",
		Short: "read and change session state (replaces session.sh)",
		Long: `Session state lives in $SUPERCLAUDE_SESSIONS_DIR (default ./sessions),
one directory per session holding .state.json. Commands other than activate,
list and show act on this pane's session, or the session of the supervisor
named by $CLAUDE_SUPERVISOR_PID, unless --session names one.`,
	}
	var named string
	var asJSON bool
	cmd.PersistentFlags().StringVar(&named, "session", "", "act on this session (name or path) instead of looking it up")

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
			s, err := openStore("session " + actor)
			if err != nil {
				return err
			}
			sess, err := findSession(s, named)
			if err != nil {
				return err
			}
			st, err := op(s, sess.Name)
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
			s, err := openStore("session activate")
			if err != nil {
				return err
			}
			name, err := s.NameFromArg(args[0])
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
			} else if cur, err := s.Load(name); err == nil {
				skill = cur.Skill
			}
			pane, err := config.PaneID(context.Background())
			if err != nil {
				fmt.Fprintln(os.Stderr, "superclaude:", err)
			}
			st, err := s.Activate(name, skill, state.Caller{Owner: owner, Pane: pane})
			var corrupt *state.Error
			if errors.As(err, &corrupt) {
				// The bad file is kept aside; activate starts fresh.
				fmt.Fprintln(os.Stderr, "superclaude:", err)
				st, err = s.Activate(name, skill, state.Caller{Owner: owner, Pane: pane})
			}
			if err != nil {
				return err
			}
			dir, _ := s.Dir(name)
			return print(c.OutOrStdout(), &state.Session{Name: name, Dir: dir, State: st})
		},
	}
	find := &cobra.Command{
		Use:   "find",
		Short: "print this pane's or this supervisor's session directory (read-only)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := openStore("session find")
			if err != nil {
				return err
			}
			sess, err := findSession(s, named)
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
	restart := &cobra.Command{
		Use:   "restart",
		Short: "request an overflow restart: kill the agent and start it fresh with /session continue",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return onFound("restart", func(s *state.Store, name string) (*state.State, error) {
				return requestRestart(c.ErrOrStderr(), s, name)
			})(c, args)
		},
	}
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
		Short: "list every session",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := openStore("session list")
			if err != nil {
				return err
			}
			return writeStatus(c.OutOrStdout(), s, asJSON)
		},
	}
	show := &cobra.Command{
		Use:   "show [session]",
		Short: "print a session's state file",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			s, err := openStore("session show")
			if err != nil {
				return err
			}
			which := named
			if len(args) == 1 {
				which = args[0]
			}
			sess, err := findSession(s, which)
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
	reindex := &cobra.Command{
		Use:   "reindex",
		Short: "rebuild the pane and supervisor lookup index from the state files",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := openStore("session reindex")
			if err != nil {
				return err
			}
			return s.Reindex()
		},
	}
	for _, sub := range []*cobra.Command{activate, find, phase, deactivate, restart, update, target, list, show} {
		sub.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	}
	cmd.AddCommand(activate, find, phase, deactivate, restart, update, target, list, show, reindex)
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

// requestRestart writes the restart request to the session's state, then
// asks the supervisor named by the environment — and only that one, its
// identity verified — to kill the agent from outside. The state comes
// first: the supervisor decides what to start next from it.
func requestRestart(stderr io.Writer, s *state.Store, name string) (*state.State, error) {
	sup, err := config.Supervisor()
	if err == nil {
		// Only the session's own supervisor may restart it (seed 003, bug
		// 3): refuse before writing anything.
		cur, lerr := s.Load(name)
		if lerr != nil {
			return nil, lerr
		}
		if cur.PID != sup.PID {
			return nil, fmt.Errorf("session %s belongs to pid %d, not to the supervisor running this command (pid %d)", name, cur.PID, sup.PID)
		}
	}
	st, werr := s.RequestRestart(name)
	if werr != nil {
		return nil, werr
	}
	sock := os.Getenv(config.EnvSocket)
	if err == nil && sock == "" {
		err = fmt.Errorf("$%s is not set", config.EnvSocket)
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err = control.Call(ctx, sock, sup, control.Request{Op: control.OpRestart, Session: name, Reason: "superclaude +session restart"})
	}
	if err != nil {
		fmt.Fprintf(stderr, "superclaude: restart prepared for %s, but no supervisor took it (%v).\n"+
			"Exit the agent and start it again with: superclaude %q\n", name, err, st.RestartPrompt)
		return st, nil
	}
	fmt.Fprintf(stderr, "superclaude: restart prepared for %s; the supervisor is restarting the agent.\n", name)
	return st, nil
}
