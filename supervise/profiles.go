package supervise

// The agent CLIs superclaude knows besides Claude Code, Codex and Gemini
// CLI. None of them gives superclaude its context usage, so overflow
// restart is off for them (they have ContextNone), and none tells
// superclaude which conversation it has: a restart starts a new one, and
// +status and +why say so. Crashes are restarted as for any agent.
var (
	// OpenCode is opencode: `-s <id>` (--session) resumes a conversation
	// a person names; `--prompt` for a first prompt.
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

// scanGeneric reads a command line superclaude knows little of: --help
// and --version only print (every CLI of these reads them so), anything
// else is interactive and restarted with the same arguments.
func scanGeneric(args []string) Invocation {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--help" || a == "--version" {
			return Invocation{OneShot: true, PrintsOnly: true, Restart: args}
		}
	}
	return Invocation{Restart: append([]string(nil), args...)}
}
