package supervise

import (
	"strings"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/proc"
)

// Claude is the profile of Claude Code: `--resume <id>`; a first prompt is
// the positional argument, put first so that no trailing option (a
// variadic --add-dir, say) takes it as its value; context usage from its
// status line.
var Claude = Profile{
	Name:          "claude",
	Command:       "claude",
	Scan:          ScanClaudeArgs,
	Resume:        appendArgs("--resume"),
	Prompt:        func(args []string, prompt string) []string { return append([]string{prompt}, args...) },
	ContextUsage:  ContextStatusLine,
	RestartPrompt: claude.ContinuePrompt,
	Dehydrate:     claude.Dehydrate,
	Status: func(env []string, agent proc.Identity) (string, error) {
		return claude.AgentStatus(claude.ConfigDirOf(env), agent.PID, agent.Start)
	},
	Output: claude.RewriteResumeHint,
}

// How Claude Code's command line parses (commander.js, as `claude --help`
// of 2.1.330 lists it). An option with a required value takes the next
// argument; one with an optional value takes the next argument unless it
// starts with '-'; a variadic one takes arguments until one starts with
// '-'. Anything else not starting with '-' is the prompt, or a subcommand
// when it comes first.
var (
	claudeValue = set("--agent", "--agents", "--append-system-prompt", "--append-system-prompt-file",
		"--autocompact", "--debug-file", "--effort", "--environment", "--fallback-model",
		"--input-format", "--json-schema", "--max-budget-usd", "--model", "-n", "--name",
		"--output-format", "--permission-mode", "--permission-prompts", "--plugin-dir", "--plugin-url",
		"--remote-control-session-name-prefix", "--session-id", "--setting-sources", "--settings",
		"--system-prompt", "--system-prompt-file", "--system-prompt-snapshot")
	claudeOptional = set("--cloud", "-d", "--debug", "--from-pr", "--prompt-suggestions",
		"--remote-control", "-r", "--resume", "--teleport", "-w", "--worktree")
	claudeVariadic = set("--add-dir", "--allowedTools", "--allowed-tools", "--betas",
		"--disallowedTools", "--disallowed-tools", "--file", "--mcp-config", "--tools")
	// Options that pick the conversation: the user's choice wins over
	// fleet resume, and is dropped on a restart.
	claudeConversation = set("-r", "--resume", "-c", "--continue", "--session-id", "--from-pr",
		"--teleport", "--fork-session")
	// Options after which claude answers once and exits.
	claudeOneShot = set("-p", "--print", "-h", "--help", "-v", "-V", "--version", "--bg", "--background",
		"--desktop", "--cloud")
	// Options after which claude only prints (commander prints and exits
	// before any action runs).
	claudePrintsOnly  = set("-h", "--help", "-v", "-V", "--version")
	claudeSubcommands = set("agents", "attach", "auth", "auto-mode", "doctor", "gateway", "import",
		"install", "logs", "mcp", "plugin", "plugins", "purge", "respawn", "rm", "setup-token",
		"stop", "kill", "ultrareview", "update", "upgrade", "help", "config", "migrate-installer")
)

// commandWord says whether a could name a subcommand: one lower-case
// word. A prompt with spaces never does, and is never looked up.
func commandWord(a string) bool {
	if a == "" || len(a) > 40 {
		return false
	}
	for i, r := range a {
		if !(r >= 'a' && r <= 'z' || (i > 0 && (r >= '0' && r <= '9' || r == '-'))) {
			return false
		}
	}
	return true
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
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
	var inv Invocation
	first := "" // the first operand: a subcommand, or the prompt
	keep := make([]bool, len(args))
	positional := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// Everything after is positional: the prompt.
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if positional == 0 {
				first = a
				if claudeSubcommands[a] {
					inv.OneShot = true
				}
			}
			positional++
			continue
		}
		name, _, inline := strings.Cut(a, "=")
		start := i
		switch {
		case inline:
		case claudeValue[name]:
			if i+1 < len(args) {
				i++
			}
		case claudeOptional[name]:
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case claudeVariadic[name]:
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		}
		if claudeOneShot[name] {
			inv.OneShot = true
		}
		if claudePrintsOnly[name] {
			inv.PrintsOnly = true
		}
		if claudeConversation[name] {
			inv.ChoseConversation = true
			continue
		}
		for j := start; j <= i; j++ {
			keep[j] = true
		}
	}
	// Only a one-word first operand of a run that is not one-shot anyway
	// is worth asking claude about (a --help run, once per version).
	if !inv.OneShot && isSubcommand != nil && commandWord(first) && isSubcommand(first) {
		inv.OneShot = true
	}
	for i, a := range args {
		if keep[i] {
			inv.Restart = append(inv.Restart, a)
		}
	}
	return inv
}
