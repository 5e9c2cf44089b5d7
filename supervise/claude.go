package supervise

import (
	"errors"
	"io/fs"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/claudeargs"
	"github.com/superclaude/superclaude/internal/envvar"
)

// Claude is the profile of Claude Code: `--resume <id>`; a first prompt is
// the positional argument, put first so that no trailing option (a
// variadic --add-dir, say) takes it as its value; context usage from its
// status line.
var Claude = claudeProfile()

func claudeProfile() Profile {
	return Profile{
		Name:          "claude",
		Command:       envvar.DefaultAgent,
		Scan:          ScanClaudeArgs,
		Resume:        appendArgs("--resume"),
		ValidID:       isUUID,
		Prompt:        func(args []string, prompt string) []string { return append([]string{prompt}, args...) },
		ContextUsage:  ContextStatusLine,
		RestartPrompt: claude.ContinuePrompt,
		Dehydrate:     claude.Dehydrate,
		Status: func(a Running) (string, error) {
			st, err := claude.AgentStatus(claude.ConfigDirOf(a.Env), a.Process.PID, a.Process.Start)
			if errors.Is(err, fs.ErrNotExist) {
				return "", nil // claude writes it once it runs: it has not said yet
			}
			return st, err
		},
		Watch: func(a Running) WatchSet {
			return WatchSet{Files: []string{claude.AgentStatusFile(claude.ConfigDirOf(a.Env), a.Process.PID)}}
		},
		Activates:         true,
		TakesAsPrompt:     claude.TakesAsPrompt,
		HoldKeysAtRestart: true,
		Output:            claude.RewriteResumeHint,
	}
}

// ScanClaudeArgs reads a claude command line, knowing the subcommands of
// claude 2.1.330.
func ScanClaudeArgs(args []string) Invocation {
	return ScanClaudeArgsWith(args, nil)
}

// ScanClaudeArgsWith is ScanClaudeArgs that also takes for a subcommand
// any first operand isSubcommand says is one (nil: none beyond 2.1.330's):
// what the installed claude says about itself, so that a subcommand added
// later is passed through unchanged, with nothing injected, instead of
// being taken for the prompt of an interactive run.
func ScanClaudeArgsWith(args []string, isSubcommand func(word string) bool) Invocation {
	inv := claudeargs.Scan(args, isSubcommand)
	return Invocation{OneShot: inv.OneShot, PrintsOnly: inv.PrintsOnly, ChoseConversation: inv.ChoseConversation, Restart: inv.Restart}
}
