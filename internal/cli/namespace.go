// Package cli owns what superclaude's command line looks like: which
// arguments are superclaude's own and which belong to the agent, and how
// sessions, events and errors are said to people. The cobra commands in
// cmd/superclaude only declare commands and flags, call the one package
// that owns each command's flow, and print with what is here; a test in
// internal/deps holds cmd to the packages it may call.
package cli

import "strings"

// Prefix marks superclaude's own commands: `superclaude +session list`,
// `superclaude +status`.
//
// Everything else on superclaude's command line belongs to the agent,
// unchanged, because superclaude is a drop-in for `claude`. Claude's own
// subcommands (doctor, mcp, update, install, agents …) are bare words, its
// options start with '-', and a bare word that is no subcommand is taken as
// the first prompt. So any bare word superclaude claimed — even "session" —
// could shadow a subcommand Claude adds later or a prompt a user types. A
// leading '+' cannot: no Claude subcommand or option starts with it, and
// only the exact names superclaude defines are taken (rustup's `cargo
// +nightly` uses the same mark for the same reason). A prompt that starts
// with '+' and names no superclaude command still goes to the agent.
const Prefix = "+"

// Own reports whether args (the command line without the program name)
// call one of superclaude's own commands, whose names (with the prefix) are
// given, and returns the command line for superclaude's command parser. A
// lone prefix asks for help.
func Own(args []string, commands []string) (bool, []string) {
	if len(args) == 0 || !strings.HasPrefix(args[0], Prefix) {
		return false, nil
	}
	if args[0] == Prefix {
		return true, []string{Prefix + "help"}
	}
	for _, c := range commands {
		if c == args[0] {
			return true, args
		}
	}
	return false, nil
}

// commandLike matches a lone argument that looks like one of superclaude's
// own commands: the prefix and a word. A word with more prefixes before it
// or punctuation after it ("++status", "+status.", "+why?") is one too,
// typed in a hurry: it names no command and is no prompt anyone means to
// pay for. What follows the prefix must start with a letter, so "+1" and
// "+1, ship it" are prompts.
func commandLike(arg string) bool {
	word := strings.TrimLeft(arg, Prefix)
	if len(word) == len(arg) {
		return false
	}
	word = strings.TrimRight(word, ".,;:!?")
	if word == "" {
		return false
	}
	for i, r := range word {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !(letter || (i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_'))) {
			return false
		}
	}
	return true
}

// bareCommand is a command-like argument as the command it was meant to
// be: one prefix, no trailing punctuation ("++status." → "+status").
func bareCommand(arg string) string {
	return Prefix + strings.TrimRight(strings.TrimLeft(arg, Prefix), ".,;:!?")
}

// Mistyped reports whether args (the command line without the program
// name) begin with what can only be a mistyped superclaude command — a
// lone "+word" that names none of commands — and returns the closest
// command to suggest ("" when none is close). Such a line must never reach
// the agent as a prompt: it would be sent to the model, and paid for. A
// prompt that merely starts with the prefix ("+1, ship it", "+1") is no
// command-like word and still goes to the agent.
func Mistyped(args []string, commands []string) (bool, string) {
	if len(args) == 0 || !commandLike(args[0]) {
		return false, ""
	}
	for _, c := range commands {
		if c == args[0] {
			return false, ""
		}
	}
	var own []string
	for _, c := range commands {
		if strings.HasPrefix(c, Prefix) {
			own = append(own, c)
		}
	}
	return true, Suggest(bareCommand(args[0]), own)
}

// Suggest returns the name among names nearest to word, a mistyped one:
// within two edits, or one that word begins (three letters at least); ""
// when none is.
func Suggest(word string, names []string) string {
	best, bestD := "", 3
	for _, c := range names {
		d := distance(strings.ToLower(word), c)
		if strings.HasPrefix(c, strings.ToLower(word)) && len(word) > 2 {
			d = 1
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
