package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/launch"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/proc"
)

func historyCommand() *cobra.Command {
	var asJSON, local bool
	var host string
	cmd := &cobra.Command{
		Use:   "+history [session | pane]",
		Short: "the conversations a session or pane has had: id, start, end, why it ended, cost, first and last prompt",
		Long: `List the conversations a session or a pane has had, oldest first: the
conversation's id, when it started and ended, why it ended (crash, limit,
no-progress, user-exit, stopped, restarted), what it cost, and its first and
last prompt. With no argument: this pane's, else this agent's session's.
superclaude +resume N resumes the Nth.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			which := ""
			if len(args) == 1 {
				which = args[0]
			}
			var cs []cli.Conversation
			var what string
			var err error
			if host == "" {
				cs, what, err = sessions.Conversations(which)
			}
			on, herr := onHost(host, local, err != nil || len(cs) == 0, "", which, true)
			if herr != nil {
				return herr
			}
			if on != "" {
				argv := []string{"+history"}
				if which != "" {
					argv = append(argv, which)
				}
				if asJSON {
					argv = append(argv, "--json")
				}
				return runOnHost(c.Context(), on, argv, c.OutOrStdout(), c.ErrOrStderr())
			}
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteJSON(c.OutOrStdout(), cs)
			}
			if len(cs) == 0 {
				return fmt.Errorf("no conversations recorded for %s", what)
			}
			return cli.WriteHistory(c.OutOrStdout(), cs)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	hostFlags(cmd, &host, &local)
	return cmd
}

func resumeCommand() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "+resume N [session | pane]",
		Short: "resume conversation N of +history, under a supervisor, unless another live supervisor runs it",
		Long: `Resume conversation N of +history under a supervisor, unless another live
supervisor runs it. A conversation whose context overflowed is resumed only
after a warning and a yes (--yes answers it, for scripts).`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 1 {
				return fmt.Errorf("+resume %q: want the number +history gives a conversation", args[0])
			}
			which := ""
			if len(args) == 2 {
				which = args[1]
			}
			cs, what, err := sessions.Conversations(which)
			if err != nil {
				return err
			}
			if n > len(cs) {
				return fmt.Errorf("%s has %d conversations; there is no %d", what, len(cs), n)
			}
			id := cs[n-1].ID
			if w := cli.ResumeWarning(cs[n-1]); w != "" && !yes {
				fmt.Fprintln(c.ErrOrStderr(), "superclaude: "+w)
				if !cli.Confirm(c.InOrStdin(), c.ErrOrStderr(), "Resume it anyway? [y/N] ") {
					return fmt.Errorf("+resume %d: not resumed (--yes resumes it without asking)", n)
				}
			}
			s, err := sessions.OpenStore("resume")
			if err != nil {
				return err
			}
			self, err := proc.Self()
			if err != nil {
				return err
			}
			if holder, ok, err := s.Lease(id, self); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("conversation %s is running under the supervisor with pid %d", id, holder.PID)
			}
			launch.SingleProc()
			o, err := launch.FromEnv()
			if err != nil {
				return err
			}
			return exitCode(launch.Run(o, []string{"--resume", id}))
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "resume a conversation that overflowed without asking")
	return cmd
}
