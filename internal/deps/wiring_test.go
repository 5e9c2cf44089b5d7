package deps

import (
	"sort"
	"testing"
)

// wiring lists the only packages of the module that cmd/superclaude may
// import, each with why. cmd declares the commands and their flags, calls
// the one package that owns each command's flow, and prints: anything
// below these — state, supervise, proc, control, tmux, claude, config,
// remote, termtext — is a flow's inner workings, and an import of one
// would be cmd starting to hold a flow again.
var wiring = map[string]string{
	"internal/handover":  "imported first: hands `--version` and a nested start to the agent before the heavy packages initialise",
	"internal/callback":  "imported for its init: answers +statusline and +hook before the heavy packages initialise",
	"internal/cli":       "the command line's namespace (+) and its words: tables, JSON, errors, help codes",
	"internal/launch":    "a supervised or one-shot run of the agent: plain `superclaude ARGS`, +run, +resume",
	"internal/agentside": "what Claude Code calls back into: +statusline, +hook, +log, +pane-id",
	"internal/sessions":  "the +session subcommands on one session",
	"internal/hosts":     "views and lookups that cover the fleets' other hosts (+status, +why, +history, restart) and +remote",
	"internal/fleet":     "+up and +down",
	"internal/dashboard": "+dashboard",
	"internal/doctor":    "+doctor",
	"internal/version":   "+version: the build's identity",
	"internal/envvar":    "the SUPERCLAUDE_* names that flags' help mentions",
}

// notWiring returns, sorted, the module's packages among imports that are
// not in allowed.
func notWiring(imports []string, allowed map[string]string) []string {
	var bad []string
	for _, imp := range imports {
		if name, ours := rel(imp); ours {
			if _, ok := allowed[name]; !ok {
				bad = append(bad, name)
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestCmdImportsOnlyWiring: cmd/superclaude is wiring, and stays so.
func TestCmdImportsOnlyWiring(t *testing.T) {
	var cmd *pkg
	for _, p := range listPackages(t) {
		if p.ImportPath == module+"/cmd/superclaude" {
			cmd = &p
		}
	}
	if cmd == nil || len(cmd.Imports) < 5 {
		t.Fatalf("go list found no cmd/superclaude, or one that imports almost nothing: %+v", cmd)
	}
	for _, name := range notWiring(cmd.Imports, wiring) {
		t.Errorf("cmd/superclaude imports %s, which is no command's package: call the package that owns the flow (the list and its reasons are in wiring_test.go)", name)
	}
}

// TestNotWiringIsFound runs the check on a made-up import list: a check
// that let everything through would fail here.
func TestNotWiringIsFound(t *testing.T) {
	got := notWiring([]string{"fmt", module + "/internal/cli", module + "/state", module + "/internal/tmux", "github.com/spf13/cobra"}, wiring)
	if len(got) != 2 || got[0] != "internal/tmux" || got[1] != "state" {
		t.Fatalf("got %q", got)
	}
}
