package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/hosts"
	"github.com/superclaude/superclaude/internal/sessions"
)

// sessionFlags are the flags every +session subcommand shares: --session,
// and --json where it prints a session.
type sessionFlags struct {
	which  string
	asJSON bool
}

// newSessionCmd is +session and its subcommands, which read and change
// one session's state (internal/sessions).
func newSessionCmd() *cobra.Command {
	f := &sessionFlags{}
	cmd := &cobra.Command{
		Use:   "+session",
		Short: "read and change a session: what skills and superclaude know of one piece of work",
		Long: `Session state lives in a sessions directory: $SUPERCLAUDE_SESSIONS_DIR
when set, else ./sessions when it exists, else ~/.local/state/superclaude/sessions;
one directory per session holding .state.json. Commands other than activate,
list and show act on the session of the agent they run under (its Bash
tool, a shell it opened), else on this tmux pane's, unless --session names
one; show takes the session as its argument too.`,
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
	cmd.PersistentFlags().StringVar(&f.which, "session", "", "act on this session (name or path) instead of looking it up")
	printing := []*cobra.Command{newSessionActivateCmd(f), newSessionFindCmd(f), newSessionPhaseCmd(f), newSessionDeactivateCmd(f),
		newSessionRestartCmd(f), newSessionUpdateCmd(f), newSessionTargetCmd(f), newSessionListCmd(f), newSessionShowCmd(f), newSessionResetCmd(f)}
	for _, sub := range printing {
		sub.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	}
	cmd.AddCommand(printing...)
	cmd.AddCommand(newSessionReindexCmd(), newSessionRmCmd(), newSessionPruneCmd())
	return cmd
}

func newSessionActivateCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "activate <dir> [skill]",
		Short: "create a session, or take one over, for a skill: it becomes this agent's and this pane's (without a skill it keeps its own)",
		Args:  cobra.RangeArgs(1, 2),
		RunE:  func(c *cobra.Command, args []string) error { return runSessionActivate(c, f, args) },
	}
}

func runSessionActivate(c *cobra.Command, f *sessionFlags, args []string) error {
	skill := ""
	if len(args) == 2 {
		skill = args[1]
	}
	a, err := sessions.Activate(args[0], skill, len(args) == 2)
	for _, note := range a.Notes {
		fmt.Fprintln(os.Stderr, "superclaude:", note)
	}
	if err != nil {
		return err
	}
	if a.Shell != 0 && term.IsTerminal(int(os.Stderr.Fd())) {
		// A person typing it in a plain shell, which now owns the
		// session and which +status shows as running. Say what that
		// means; a skill's Bash has no terminal and is not told.
		fmt.Fprintf(os.Stderr, "superclaude: no supervisor here: this shell (pid %d) now holds session %s until it exits. "+
			"Nothing restarts an agent in it, and a superclaude started in this pane meanwhile starts a session of its own; "+
			"restarts and the overflow guard need claude started as superclaude (then the agent activates the session)\n", a.Shell, a.Name)
	}
	return cli.WriteSession(c.OutOrStdout(), a.Session, f.asJSON)
}

func newSessionFindCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "find",
		Short: "print the directory of this agent's or this pane's session; changes nothing",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, args []string) error { return runSessionFind(c.OutOrStdout(), f) },
	}
}

func runSessionFind(out io.Writer, f *sessionFlags) error {
	sess, err := sessions.Lookup("session find", f.which)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
}

func newSessionPhaseCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "phase <name>",
		Short: "record the phase the skill is in (the status line shows it; the reminders to log count from here)",
		Args:  cobra.ExactArgs(1),
		RunE:  func(c *cobra.Command, args []string) error { return runSessionPhase(c.OutOrStdout(), f, args[0]) },
	}
}

func runSessionPhase(out io.Writer, f *sessionFlags, phase string) error {
	sess, err := sessions.Phase(f.which, phase)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
}

func newSessionDeactivateCmd(f *sessionFlags) *cobra.Command {
	var keywords string
	cmd := &cobra.Command{
		Use:   "deactivate",
		Short: "mark the session completed; a description is read from stdin",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runSessionDeactivate(c.InOrStdin(), c.OutOrStdout(), f, keywords)
		},
	}
	cmd.Flags().StringVar(&keywords, "keywords", "", "comma-separated search keywords")
	return cmd
}

func runSessionDeactivate(in io.Reader, out io.Writer, f *sessionFlags, keywords string) error {
	desc, err := readStdinIfPiped(in)
	if err != nil {
		return err
	}
	sess, err := sessions.Deactivate(f.which, desc, keywords)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
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

// restartFlags are +session restart's own.
type restartFlags struct {
	now, local bool
	host       string
}

func newSessionRestartCmd(f *sessionFlags) *cobra.Command {
	var r restartFlags
	cmd := &cobra.Command{
		Use:   "restart",
		Short: "restart the session's agent with a fresh context: its work is saved, and the new agent carries on from it",
		Long: `Ask the live supervisor that owns the session (this agent's own, or the one
--session names, from any shell of the same user) to restart its agent: the
supervisor saves the agent's context (DEHYDRATED_CONTEXT.md, unless the agent
just wrote it), records the restart in the session's state, kills the agent
from outside and starts it fresh with the continuation prompt. When no live
supervisor owns the session, nothing is written.

Asked from outside the agent, the restart waits for claude to finish the
turn it is in (a minute at most); --now restarts at once.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runSessionRestart(c, f, r) },
	}
	cmd.Flags().BoolVar(&r.now, "now", false, "restart at once, even in the middle of a turn")
	hostFlags(cmd, &r.host, &r.local)
	return cmd
}

func runSessionRestart(c *cobra.Command, f *sessionFlags, r restartFlags) error {
	sess, on, err := hosts.Restarting(f.which, r.host, r.local)
	if on != "" {
		argv := []string{"+session", "restart", "--session", f.which}
		if r.now {
			argv = append(argv, "--now")
		}
		if f.asJSON {
			argv = append(argv, "--json")
		}
		return runOnHost(c, on, argv)
	}
	if err != nil {
		return err
	}
	ans, err := sessions.Restart(sess, r.now)
	if err != nil {
		return err
	}
	if f.asJSON {
		return cli.WriteJSON(c.OutOrStdout(), ans)
	}
	// One line, on stdout, for the person (issue 19: the session's
	// directory went to stdout and these words to stderr); errors alone
	// go to stderr.
	_, err = fmt.Fprintln(c.OutOrStdout(), sessions.RestartLine(sess.State.PID, ans))
	return err
}

func newSessionUpdateCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "update key=value…",
		Short: "set fields of the session's .state.json (key=value; a value is JSON when it reads as the field's kind, else text)",
		Long: `Set fields of the session's .state.json, each given as key=value, and print
the session's directory (--json: its state). A value is taken as JSON when it
reads as the field's kind (a number, true or false), else as text. Of
superclaude's own fields a skill may set currentPhase, sessionDescription,
keywords and the logging thresholds; the others only superclaude writes, and
they are refused, as a value of the wrong kind is, naming the field.

A key superclaude does not know is accepted, not refused: a skill keeps its own
fields in the session's state this way (superclaude +session update note=hello),
and superclaude keeps them as they are. So a misspelt key is no error either:
superclaude +session show prints what the session holds. An empty value
(note=) removes a key of your own.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runSessionUpdate(c.OutOrStdout(), f, args) },
	}
}

func runSessionUpdate(out io.Writer, f *sessionFlags, fields []string) error {
	sess, err := sessions.Update(f.which, fields)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
}

func newSessionTargetCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "target <file>",
		Short: "set the file the status line shows",
		Args:  cobra.ExactArgs(1),
		RunE:  func(c *cobra.Command, args []string) error { return runSessionTarget(c.OutOrStdout(), f, args[0]) },
	}
}

func runSessionTarget(out io.Writer, f *sessionFlags, file string) error {
	sess, err := sessions.Target(f.which, file)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
}

func newSessionListCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "list the sessions of this sessions directory (+status lists every one of yours)",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, args []string) error { return runSessionList(c.OutOrStdout(), f) },
	}
}

func runSessionList(out io.Writer, f *sessionFlags) error {
	views, err := sessions.List()
	if err != nil {
		return err
	}
	return cli.WriteStatus(out, views, f.asJSON, time.Now())
}

func newSessionShowCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "show [session]",
		Short: "print a session's .state.json: the one named, else this agent's or this pane's",
		Args:  cobra.MaximumNArgs(1),
		RunE:  func(c *cobra.Command, args []string) error { return runSessionShow(c.OutOrStdout(), f, args) },
	}
}

func runSessionShow(out io.Writer, f *sessionFlags, args []string) error {
	which := f.which
	if len(args) == 1 {
		which = args[0]
	}
	sess, err := sessions.Lookup("session show", which)
	if err != nil {
		// The README's +session show [NAME]: the name is its argument.
		return sessions.NameAsArgument(err, "+session show")
	}
	if f.asJSON {
		return cli.WriteSession(out, sess, true)
	}
	b, err := sess.State.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}

func newSessionResetCmd(f *sessionFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "reset",
		Short: "let superclaude restart the agent of a halted session again (it had stopped: too many restarts, or no progress)",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, args []string) error { return runSessionReset(c.OutOrStdout(), f) },
	}
}

func runSessionReset(out io.Writer, f *sessionFlags) error {
	sess, err := sessions.Reset(f.which)
	if err != nil {
		return err
	}
	return cli.WriteSession(out, sess, f.asJSON)
}

func newSessionReindexCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "rebuild the index that finds a pane's or an agent's session, from the sessions' .state.json files",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, args []string) error { return sessions.Reindex() },
	}
}
