package supervise

// The agent CLIs superclaude knows besides Claude Code. None of them gives
// superclaude its context usage, so overflow restart is off for them (they
// have ContextNone); crashes are restarted, resuming where the CLI can.
// A conversation id to resume comes from the session's sessionId, which
// something must bind (for Claude Code, its status line does; for these,
// `superclaude +session update sessionId=…` or a wrapper of the user's).
var (
	// Codex is OpenAI's Codex CLI: `codex resume <id>` (a subcommand); a
	// first prompt is its positional argument.
	Codex = Profile{
		Name: "codex", Command: "codex",
		Scan:         scanGeneric,
		Resume:       func(args []string, id string) []string { return append([]string{"resume", id}, args...) },
		Prompt:       func(args []string, prompt string) []string { return append(args, prompt) },
		ContextUsage: ContextNone,
	}
	// Gemini is Google's Gemini CLI: `--resume <id>`; `--prompt-interactive`
	// runs a first prompt and stays interactive.
	Gemini = Profile{
		Name: "gemini", Command: "gemini",
		Scan:         scanGeneric,
		Resume:       appendArgs("--resume"),
		Prompt:       appendArgs("--prompt-interactive"),
		ContextUsage: ContextNone,
	}
	// OpenCode is opencode: `-s <id>` (--session); `--prompt` for a first
	// prompt.
	OpenCode = Profile{
		Name: "opencode", Command: "opencode",
		Scan:         scanGeneric,
		Resume:       appendArgs("-s"),
		Prompt:       appendArgs("--prompt"),
		ContextUsage: ContextNone,
	}
	// Aider cannot resume a conversation, and its --message answers once
	// and exits, so it takes no first prompt either: every restart is a
	// plain fresh start.
	Aider = Profile{
		Name: "aider", Command: "aider",
		Scan:         scanGeneric,
		ContextUsage: ContextNone,
	}
	// Generic runs any command: no resume, no prompt, no context usage.
	Generic = Profile{
		Name:         "generic",
		Scan:         scanGeneric,
		ContextUsage: ContextNone,
	}
)

// Profiles lists the built-in profiles by name.
var Profiles = map[string]Profile{
	Claude.Name: Claude, Codex.Name: Codex, Gemini.Name: Gemini,
	OpenCode.Name: OpenCode, Aider.Name: Aider, Generic.Name: Generic,
}

// ProfileNames lists the built-in profiles' names, for help texts.
func ProfileNames() string {
	return "claude, codex, gemini, opencode, aider, generic"
}

// appendArgs returns a Resume or Prompt that appends flag and the value.
func appendArgs(flag string) func([]string, string) []string {
	return func(args []string, v string) []string {
		return append(append([]string(nil), args...), flag, v)
	}
}

// scanGeneric reads a command line superclaude knows nothing of: never
// one-shot, and restarted with the same arguments.
func scanGeneric(args []string) Invocation {
	return Invocation{Restart: append([]string(nil), args...)}
}
