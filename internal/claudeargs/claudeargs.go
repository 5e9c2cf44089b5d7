// Package claudeargs reads Claude Code's command line: which arguments take
// a value, which make a run one-shot, which pick the conversation. It is
// the profile scanner of supervise.Claude, and the decision
// internal/handover makes before the program has initialised, so it imports
// nothing at all: no package initialiser of its own or of a dependency runs
// before the hand-over's (strings alone would bring unicode's tables). Its
// option lists are switch statements, not maps, for the same reason: a
// package-level map is built by an initialiser.
package claudeargs

// Invocation is what a claude command line asks for.
type Invocation struct {
	// OneShot: claude answers once and exits (`-p`, `--version`, a
	// subcommand such as `mcp list`).
	OneShot bool
	// PrintsOnly: a one-shot run that only prints and starts nothing
	// (`--version`, `--help`).
	PrintsOnly bool
	// ChoseConversation: the user named the conversation (--resume,
	// --continue …).
	ChoseConversation bool
	// Restart is the command line without the choice of conversation and
	// without the first operand (the prompt): what a restarted claude
	// gets before a resume or a prompt is added.
	Restart []string

	// values marks the arguments read as an option's value (Values).
	values []bool
}

// Values reports, for each of args, whether claude reads it as the value of
// an option before it (`--append-system-prompt --resume-policy`): a word
// there is no option, whatever it looks like.
func Values(args []string) []bool {
	return Scan(args, nil).values
}

// Scan reads args, knowing the subcommands of claude 2.1.330, and also
// taking for a subcommand any first operand isSubcommand says is one (nil:
// none beyond those): what the installed claude says about itself, so that
// a subcommand added later is passed through unchanged instead of being
// taken for the prompt of an interactive run. isSubcommand is asked only
// about a one-word first operand of a run not one-shot anyway.
//
// How Claude Code's command line parses (commander.js, as `claude --help`
// of 2.1.330 lists it): an option with a required value takes the next
// argument; one with an optional value takes the next argument unless it
// starts with '-'; a variadic one takes arguments until one starts with
// '-'. Anything else not starting with '-' is the prompt, or a subcommand
// when it comes first. After "--" everything is an operand.
func Scan(args []string, isSubcommand func(word string) bool) Invocation {
	inv := Invocation{values: make([]bool, len(args))}
	first := "" // the first operand: a subcommand, or the prompt
	positional := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// What follows is operands; commander still looks the
			// first one up as a subcommand.
			if positional == 0 && i+1 < len(args) {
				first = args[i+1]
				if subcommand(first) {
					inv.OneShot = true
				}
			}
			break
		}
		if !isOption(a) {
			if positional == 0 {
				first = a
				if subcommand(a) {
					inv.OneShot = true
				}
			}
			positional++
			continue
		}
		if len(a) > 2 && a[1] != '-' && short(a[:2]) {
			i = inv.combined(args, i)
			continue
		}
		name, inline := cut(a)
		start := i
		switch {
		case inline:
		case takesValue(name):
			if i+1 < len(args) {
				i++
			}
		case takesOptionalValue(name):
			if i+1 < len(args) && !isOption(args[i+1]) {
				i++
			}
		case variadic(name):
			for i+1 < len(args) && !isOption(args[i+1]) {
				i++
			}
		}
		for j := start + 1; j <= i; j++ {
			inv.values[j] = true
		}
		if inv.note(name) {
			continue // the conversation: not for a restart
		}
		inv.Restart = append(inv.Restart, args[start:i+1]...)
	}
	if !inv.OneShot && isSubcommand != nil && commandWord(first) && isSubcommand(first) {
		inv.OneShot = true
	}
	return inv
}

// note records what option name asks for, and reports whether it picks
// the conversation.
func (inv *Invocation) note(name string) (conversation bool) {
	if oneShot(name) {
		inv.OneShot = true
	}
	if printsOnly(name) {
		inv.PrintsOnly = true
	}
	if picksConversation(name) {
		inv.ChoseConversation = true
		return true
	}
	return false
}

// combined reads args[i], short options written together, as commander
// does: `-cp` is -c then -p; in `-dapi` the first option that takes a value
// (-d) takes the rest (api); when that option is the last letter, it takes
// the next argument as it would alone. A letter that is no option of
// claude's ends the reading (commander refuses it). The restart keeps the
// letters that do not pick the conversation, and their value. It returns
// the index of the last argument read.
func (inv *Invocation) combined(args []string, i int) int {
	a := args[i]
	var kept []byte
	var value []string
	for j := 1; j < len(a); j++ {
		name := "-" + a[j:j+1]
		if !short(name) {
			kept = append(kept, a[j:]...)
			break
		}
		conversation := inv.note(name)
		if !conversation {
			kept = append(kept, a[j])
		}
		if !takesValue(name) && !takesOptionalValue(name) {
			continue
		}
		if j+1 < len(a) {
			if !conversation {
				kept = append(kept, a[j+1:]...)
			}
			break
		}
		if i+1 < len(args) && (takesValue(name) || !isOption(args[i+1])) {
			i++
			inv.values[i] = true
			if !conversation {
				value = append(value, args[i])
			}
		}
	}
	if len(kept) > 0 {
		inv.Restart = append(append(inv.Restart, "-"+string(kept)), value...)
	}
	return i
}

// short reports whether name is one of claude's one-letter options.
func short(name string) bool {
	return len(name) == 2 && (takesValue(name) || takesOptionalValue(name) || variadic(name) ||
		picksConversation(name) || oneShot(name) || printsOnly(name))
}

// isOption: a word starting with '-' other than "-" itself, as
// commander's maybeOption: an option with an optional value, or a
// variadic one, takes anything else as its value, "-" included.
func isOption(a string) bool { return len(a) > 1 && a[0] == '-' }

// cut splits an option at its first '=': the name, and whether a value
// was given inline.
func cut(a string) (name string, inline bool) {
	for i := 0; i < len(a); i++ {
		if a[i] == '=' {
			return a[:i], true
		}
	}
	return a, false
}

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

func takesValue(name string) bool {
	switch name {
	case "--agent", "--agents", "--append-system-prompt", "--append-system-prompt-file",
		"--autocompact", "--debug-file", "--effort", "--environment", "--fallback-model",
		"--input-format", "--json-schema", "--max-budget-usd", "--model", "-n", "--name",
		"--output-format", "--permission-mode", "--permission-prompts", "--plugin-dir", "--plugin-url",
		"--remote-control-session-name-prefix", "--session-id", "--setting-sources", "--settings",
		"--system-prompt", "--system-prompt-file", "--system-prompt-snapshot":
		return true
	}
	return false
}

func takesOptionalValue(name string) bool {
	switch name {
	case "--cloud", "-d", "--debug", "--from-pr", "--prompt-suggestions",
		"--remote-control", "-r", "--resume", "--teleport", "-w", "--worktree":
		return true
	}
	return false
}

func variadic(name string) bool {
	switch name {
	case "--add-dir", "--allowedTools", "--allowed-tools", "--betas",
		"--disallowedTools", "--disallowed-tools", "--file", "--mcp-config", "--tools":
		return true
	}
	return false
}

// picksConversation: the user's choice wins over fleet resume, and is
// dropped on a restart.
func picksConversation(name string) bool {
	switch name {
	case "-r", "--resume", "-c", "--continue", "--session-id", "--from-pr",
		"--teleport", "--fork-session":
		return true
	}
	return false
}

// oneShot: options after which claude answers once and exits.
func oneShot(name string) bool {
	switch name {
	case "-p", "--print", "-h", "--help", "-v", "-V", "--version", "--bg", "--background",
		"--desktop", "--cloud":
		return true
	}
	return false
}

// printsOnly: options after which claude only prints (commander prints
// and exits before any action runs).
func printsOnly(name string) bool {
	switch name {
	case "-h", "--help", "-v", "-V", "--version":
		return true
	}
	return false
}

// subcommand: claude 2.1.330's subcommands.
func subcommand(word string) bool {
	switch word {
	case "agents", "attach", "auth", "auto-mode", "doctor", "gateway", "import",
		"install", "logs", "mcp", "plugin", "plugins", "purge", "respawn", "rm", "setup-token",
		"stop", "kill", "ultrareview", "update", "upgrade", "help", "config", "migrate-installer":
		return true
	}
	return false
}
