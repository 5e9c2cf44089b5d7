// Command superclaude is a drop-in wrapper for Claude Code: `superclaude …`
// runs `claude …` on a pty under a supervision tree, with overflow restart,
// fleet resume and whole-tree kills. Its own commands start with '+'
// (`superclaude +session list`); every other argument goes to the agent
// unchanged. See internal/cli for why the prefix.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/launch"

	// Answers claude's status line and hooks before the packages they do
	// not use initialise, the way handover takes --version (see its doc).
	_ "github.com/superclaude/superclaude/internal/callback"

	// Hands `superclaude --version` to the agent, and a copy of
	// superclaude started as the agent to the real one, before the other
	// packages initialise: Go's init order does it (see its doc).
	"github.com/superclaude/superclaude/internal/handover"
	"github.com/superclaude/superclaude/internal/version"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if err := handover.PassThroughFailed(); err != nil {
		// A copy of superclaude started as another's agent, with no
		// agent to hand over to, or superclaude nested in itself too
		// deep: never supervise (internal/handover).
		cli.Say(os.Stderr, "cannot start the agent: "+err.Error())
		return 127
	}
	if r := handover.Ran(); r != nil {
		// The agent has run (`-p`) and may have left something behind.
		return launch.FinishRun(r)
	}
	if len(args) == 0 || !strings.HasPrefix(args[0], cli.Prefix) &&
		args[0] != cobra.ShellCompRequestCmd && args[0] != cobra.ShellCompNoDescRequestCmd {
		// The agent's command line: no need to build superclaude's
		// command tree first (a one-shot run's start is timed, issue 12).
		return launch.Command(args)
	}
	root := newRootCmd()
	var names []string
	for _, c := range root.Commands() {
		names = append(names, c.Name())
	}
	// cobra's completion scripts call back through its hidden commands.
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			return 1
		}
		return 0
	}
	if typo, suggest := cli.Mistyped(args, names); typo {
		msg := fmt.Sprintf("superclaude: %s is not a superclaude command", args[0])
		if suggest != "" {
			msg += fmt.Sprintf("; did you mean %s?", suggest)
		}
		fmt.Fprintln(os.Stderr, msg+" (superclaude +help lists them; nothing was sent to claude)")
		return 2
	}
	if own, rest := cli.Own(args, names); own {
		root.SetArgs(rest)
		if cmd, err := root.ExecuteC(); err != nil {
			var ec exitCode
			if errors.As(err, &ec) {
				return int(ec)
			}
			// An error can quote a file's content: cli.Say lets no escape
			// through to the terminal.
			msg := err.Error()
			if words, ok := cli.ArgCount(msg); ok && cmd != nil {
				// cobra says only "accepts 1 arg(s), received 0": say what.
				cli.Say(os.Stderr, fmt.Sprintf("%s %s; usage: %s", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), words, cmd.UseLine()))
				return 2
			}
			cli.Say(os.Stderr, msg)
			return 1
		}
		return 0
	}
	return launch.Command(args)
}

// unknownCommand says that word is not one of parent's commands, with the
// nearest as a suggestion, and ends the program with 2: a mistyped
// subcommand or help topic is an error, as a mistyped +command is.
func unknownCommand(parent *cobra.Command, word string) error {
	var names []string
	for _, sub := range parent.Commands() {
		names = append(names, sub.Name())
	}
	// superclaude's own --help would go to claude: +help lists ours.
	of, list := parent.Name(), parent.CommandPath()+" --help"
	if parent.Parent() == nil {
		of, list = "superclaude", "superclaude +help"
	}
	msg := fmt.Sprintf("%s is not a %s command", word, of)
	if s := cli.Suggest(word, names); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	cli.Say(os.Stderr, msg+" ("+list+" lists them)")
	return exitCode(2)
}

// exitCode lets a command end the program with a code of its own choosing
// after it has printed what it had to say.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// newRootCmd is superclaude's own commands: every one of them, and +help.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "superclaude",
		Short: "superclaude's own commands (every other argument goes to claude)",
		Long: `superclaude is a drop-in wrapper for claude: "superclaude ARGS" runs "claude ARGS"
under a supervisor that restarts it with a fresh context when its context
window fills up, resumes tmux panes' conversations, waits out usage limits,
and ends every process claude started.

superclaude's own commands start with '+', so they can never collide with a
claude subcommand, option or prompt:

  superclaude +status              every session of yours, from anywhere
  superclaude +dashboard           the same, live: attach, restart, stop
  superclaude +why [SESSION]       why it restarted
  superclaude +history             the conversations this pane had
  superclaude +session restart     restart the agent with a fresh context
  superclaude +up fleet.toml       a tmux fleet, one superclaude per pane
  superclaude +help COMMAND        more on a command
  superclaude +help codes          what every mark on screen means (!, RST, …)`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.AddCommand(newSessionCmd(), newRunCmd(), newStatusLineCmd(), newHookCmd(), newLogCmd(),
		newUpCmd(), newDownCmd(), newPaneIDCmd(), newRemoteCmd(), newStatusCmd(), newWhyCmd(), newVersionCmd(),
		newHistoryCmd(), newResumeCmd(), newDashboardCmd())
	root.AddCommand(newCompletionCmd(root), newDoctorCmd(root))
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(newHelpCmd(root))
	root.InitDefaultHelpCmd()
	return root
}

// newHelpCmd is +help: superclaude's --help would go to the agent.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "+help [command | codes]",
		Short: "help about any command; +help codes: what every mark on screen means",
		RunE:  func(c *cobra.Command, args []string) error { return runHelp(c, root, args) },
	}
}

func runHelp(c *cobra.Command, root *cobra.Command, args []string) error {
	if len(args) == 1 && args[0] == "codes" {
		return cli.WriteCodes(c.OutOrStdout(), "")
	}
	topic := ""
	if len(args) > 0 {
		topic = args[0]
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], cli.Prefix) {
		// +help status means +help +status.
		args = append([]string{cli.Prefix + args[0]}, args[1:]...)
	}
	target, rest, err := root.Find(args)
	if err != nil || target == nil || (len(args) > 0 && (target == root || len(rest) > 0)) {
		if len(args) == 0 {
			return root.Help()
		}
		if target != nil && target != root {
			return unknownCommand(target, rest[0])
		}
		return noHelpTopic(root, topic)
	}
	return target.Help()
}

// noHelpTopic says that +help knows no topic word, and which it knows:
// "+nosuch is not a superclaude command" answered a question nobody
// asked (the person typed nosuch, and asked for help, not a command).
func noHelpTopic(root *cobra.Command, word string) error {
	var names []string
	for _, c := range root.Commands() {
		if !c.Hidden && c.Name() != cli.Prefix+"help" {
			names = append(names, strings.TrimPrefix(c.Name(), cli.Prefix))
		}
	}
	sort.Strings(names)
	msg := fmt.Sprintf("there is no help topic %s", strings.TrimPrefix(word, cli.Prefix))
	if s := cli.Suggest(strings.TrimLeft(word, cli.Prefix), names); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	} else {
		msg += "."
	}
	cli.Say(os.Stderr, msg+" The topics are codes (what every mark on screen means) and the commands: "+strings.Join(names, ", "))
	return exitCode(2)
}

// newCompletionCmd is +completion: the shells' completion scripts.
func newCompletionCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "+completion bash|zsh|fish",
		Short: "print a shell completion script for superclaude's own commands",
		Long: `Print a completion script for bash, zsh or fish. Each block below is to be
pasted in the shell it names.

  # bash (needs the bash-completion package)
  mkdir -p ~/.local/share/bash-completion/completions
  superclaude +completion bash > ~/.local/share/bash-completion/completions/superclaude

  # zsh; then, in ~/.zshrc before compinit: fpath=(~/.zfunc $fpath)
  mkdir -p ~/.zfunc
  superclaude +completion zsh > ~/.zfunc/_superclaude

  # fish
  mkdir -p ~/.config/fish/completions
  superclaude +completion fish > ~/.config/fish/completions/superclaude.fish

superclaude +doctor checks that the completion is where your shell looks.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE:      func(c *cobra.Command, args []string) error { return runCompletion(c.OutOrStdout(), root, args[0]) },
	}
}

func runCompletion(out io.Writer, root *cobra.Command, shell string) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(out, true)
	case "zsh":
		return root.GenZshCompletion(out)
	case "fish":
		return root.GenFishCompletion(out, true)
	}
	return fmt.Errorf("+completion %q: want bash, zsh or fish", shell)
}

// newVersionCmd is +version.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "+version",
		Short: "print superclaude's version, the commit it was built from and that commit's date",
		Args:  cobra.NoArgs,
		Run:   func(c *cobra.Command, args []string) { runVersion(c.OutOrStdout()) },
	}
}

func runVersion(out io.Writer) { fmt.Fprintln(out, "superclaude", version.Get()) }
