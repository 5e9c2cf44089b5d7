// Package cli owns what superclaude's command line looks like: which
// arguments are superclaude's own and which belong to the agent, and how
// sessions are rendered for people. The cobra commands in
// cmd/superclaude only parse and call in here and into the other packages.
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
