package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/hosts"
	"github.com/superclaude/superclaude/internal/launch"
	"github.com/superclaude/superclaude/internal/sessions"
)

// historyFlags are +history's.
type historyFlags struct {
	asJSON, local bool
	host          string
}

// newHistoryCmd is +history.
func newHistoryCmd() *cobra.Command {
	var f historyFlags
	cmd := &cobra.Command{
		Use:   "+history [session | pane]",
		Short: "the conversations a session or pane has had: id, agent, start, end, why it ended, cost, first and last prompt",
		Long: `List the conversations a session or a pane has had, oldest first: the
conversation's id, the agent that had it (claude, codex, gemini …), when it
started and ended, why it ended (crashed, usage limit, no progress, restarted
too often, you exited, stopped, restarted; --json gives crash, limit,
no-progress, restart-loop, user-exit, stopped, restarted), what it cost (– for
an agent that does not report it), and its first and last prompt, read from
the agent's own file of it (unknown when that cannot be read).

A session is found by its name in every sessions directory of yours, as +why
finds it (a name two directories share: name one by its directory); a name
that is no session's is a pane's. With no argument: this pane's, else this
agent's session's. superclaude +resume N resumes the Nth.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runHistory(c, f, args) },
	}
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	hostFlags(cmd, &f.host, &f.local)
	return cmd
}

func runHistory(c *cobra.Command, f historyFlags, args []string) error {
	which := ""
	if len(args) == 1 {
		which = args[0]
	}
	cs, what, on, err := hosts.History(which, f.host, f.local)
	if on != "" {
		argv := []string{"+history"}
		if which != "" {
			argv = append(argv, which)
		}
		if f.asJSON {
			argv = append(argv, "--json")
		}
		return runOnHost(c, on, argv)
	}
	if err != nil {
		return err
	}
	if f.asJSON {
		return cli.WriteJSON(c.OutOrStdout(), cs)
	}
	if len(cs) == 0 {
		return sessions.NoConversation(what, 0, 0)
	}
	return cli.WriteHistory(c.OutOrStdout(), cs)
}

// newResumeCmd is +resume.
func newResumeCmd() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "+resume N [session | pane]",
		Short: "resume conversation N of +history, under a supervisor, unless another live supervisor runs it",
		Long: `Resume conversation N of +history under a supervisor, unless another live
supervisor runs it, with the agent that had it: a codex conversation with
codex, a gemini one with gemini (the command it ran, else the agent's on PATH;
when neither is there it says so and starts nothing). A conversation whose
context overflowed is resumed only after a warning and a yes (--yes answers
it, for scripts).`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error { return runResume(c, yes, args) },
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "resume a conversation that overflowed without asking")
	return cmd
}

func runResume(c *cobra.Command, yes bool, args []string) error {
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return fmt.Errorf("+resume %q: want the number +history gives a conversation", args[0])
	}
	which := ""
	if len(args) == 2 {
		which = args[1]
	}
	code, err := launch.Resume(n, which, yes, c.InOrStdin(), c.ErrOrStderr())
	if err != nil {
		return err
	}
	return exitCode(code)
}
