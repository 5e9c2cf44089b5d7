// Package handover runs the agent's one-shot invocations before the rest of
// the program has initialised: `superclaude --version` and, on Linux,
// `superclaude -p …`.
//
// A run that only prints has nothing to supervise, and superclaude hands
// its process over to the agent (exec; internal/launch/oneshot.go says
// why). What is left of its cost is Go's: the runtime's start and an exec
// from a threaded process, about 1.2 ms on the 2-core machine, and the
// initialisers of every package linked in, which run before main whether
// the run needs them or not: cobra, net, the state store, the dashboard
// and the rest, about half a millisecond more (docs/benchmarks.md,
// "One-shot runs").
//
// A print-mode run (`-p`) runs tools, which can leave processes behind, so
// it is run as a child and waited for, with a sweep after it (runPrint).
// The sweep is main's, but it is needed only when something is left, and a
// child subreaper knows that in one system call: the common run, which
// leaves nothing, ends here with the agent's status.
//
// Go initialises packages in a fixed order (the spec, since Go 1.21:
// sorted by import path, each as soon as everything it imports is
// initialised). This package imports only os, os/signal, path, syscall,
// internal/claudeargs and internal/envvar, which import nothing, so its
// init runs right after theirs and before most others; it execs or runs
// the agent from there. Not all: a dependency whose path sorts before this module's and
// that needs little is initialised first (charmbracelet/x/ansi/parser and
// BurntSushi/toml/internal, about 0.13 ms together).
// TestHandoverComesBeforeTheHeavyInitialisers in cmd/superclaude fails if
// a new import ever moves it after cobra, the state store or net.
//
// It takes only the plainest cases and otherwise does nothing, leaving
// main to decide as it always has (and to print any error): see Decide;
// the claude profile, no option of superclaude's set in the environment,
// the agent found on an absolute PATH entry (and not superclaude itself,
// installed as claude). Whatever it runs, the full path would have run
// too, the same file with the same arguments (TestHandoverAgreesWithMain);
// when its exec or fork fails, main tries again and says why.
//
// Its other job is the pass-through of a copy of superclaude started as
// the agent (passthrough.go), which must come before anything else too.
package handover

import (
	"os"
	"syscall"

	"github.com/superclaude/superclaude/internal/claudeargs"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/lookpath"
)

func init() {
	self, _ := os.Executable()
	args := os.Args[1:]
	if passThrough(args, self) || tooDeep(args) {
		return // failed: main reports it
	}
	command, kind := Decide(args, syscall.Environ())
	if kind == None {
		return
	}
	// Found as main would find it (internal/lookpath), passing over
	// superclaude installed as claude; a file found through a relative
	// PATH entry is main's to refuse and report.
	file, err := lookpath.Find(command, os.Getenv("PATH"), "", self)
	if err != nil {
		return
	}
	env := setEnv(syscall.Environ(), envvar.AgentFile, file)
	if kind == Child {
		runPrint(file, args, env) // returns only when main has more to do
		return
	}
	// On success this does not return; on failure main takes over.
	syscall.Exec(file, append([]string{file}, args...), setEnv(env, envvar.AgentParent, envvar.AgentParentValue(os.Getppid(), args)))
}

// Kind is what this package does with a run it takes.
type Kind int

const (
	// None: not taken; main decides.
	None Kind = iota
	// Exec: a run that only prints (`--version`), handed over outright.
	Exec
	// Child: a print-mode run (`-p`), run as a child and waited for, so
	// that what its tools leave behind can be swept (runPrint).
	Child
)

// harmless are the SUPERCLAUDE_ variables a `--version` run may find set
// without main deciding anything differently: the agent and profile (read
// here), directories only a supervised run uses, and what a pane under
// superclaude carries (a skill's Bash runs `superclaude --version` there).
// Any other one — a duration main would parse and might reject, a
// variable added later — leaves the decision to main. Listing what is
// allowed rather than what is not keeps a new option safe by default.
var harmless = map[string]bool{
	envvar.Agent:       true,
	envvar.Profile:     true,
	envvar.StateDir:    true,
	envvar.SessionsDir: true,
	envvar.Supervisor:  true,
	envvar.Socket:      true,
	envvar.PaneID:      true,
	envvar.Fleet:       true,
	envvar.TmuxSocket:  true,
	envvar.AgentFile:   true,
	envvar.Depth:       true,
	envvar.AgentParent: true,
}

// Harmless lists the variables of [harmless], for the test that checks main
// agrees.
func Harmless() []string {
	var out []string
	for k := range harmless {
		out = append(out, k)
	}
	return out
}

// Decide reports whether args, with the environment env (KEY=value
// entries), are a run this package takes, how, and the agent's command:
// $SUPERCLAUDE_AGENT or claude.
//
// It takes what main's one-shot path takes (claudeargs.Scan, as the claude
// profile reads a command line): a run that only prints (`--version`,
// `--help` with more), handed over (Exec); any other one-shot run (`-p`
// anywhere claude reads it as an option, `mcp list`), run as a child
// (Child). It leaves to main a bare `--help` (main adds its footer), a
// first word only the installed claude's `--help` can tell from a prompt,
// a run carrying `--resume-policy`, superclaude's own option, and a first
// argument that starts with '+' (ownCommandFirst).
func Decide(args []string, env []string) (command string, kind Kind) {
	// Without the installed claude's word (nil), a first word that is not
	// one of claude 2.1.330's subcommands reads as a prompt: not one-shot,
	// so main decides, asking claude.
	inv := claudeargs.Scan(args, nil)
	switch {
	case !inv.OneShot || isBareHelp(args) || hasOwnOption(args) || ownCommandFirst(args):
		return "", None
	case inv.PrintsOnly:
		kind = Exec
	default:
		kind = Child
	}
	var agent string
	var agentSeen bool
	for _, kv := range env {
		const prefix = envvar.Prefix
		if len(kv) < len(prefix) || kv[:len(prefix)] != prefix {
			continue
		}
		eq := len(prefix)
		for eq < len(kv) && kv[eq] != '=' {
			eq++
		}
		if eq == len(kv) {
			continue // no value: not in the environment for os.Getenv
		}
		key, value := kv[:eq], kv[eq+1:]
		switch {
		case key == envvar.Agent:
			if !agentSeen { // the first one counts, as for os.Getenv
				agent, agentSeen = value, true
			}
		case !harmless[key]:
			// Even empty: main reads some with os.LookupEnv
			// (SUPERCLAUDE_PTY_LEADER), where empty is not unset.
			return "", None
		case key == envvar.Profile && value != "" && value != envvar.DefaultAgent:
			return "", None
		}
	}
	if agent == "" {
		return envvar.DefaultAgent, kind
	}
	return agent, kind
}

// ownOption is superclaude's one option on the agent's command line
// (cmd/superclaude's optResume), which main takes out before the agent
// sees the arguments.
const ownOption = "--resume-policy"

// ownCommandFirst: a first argument that starts with '+', which may be
// one of superclaude's own commands (`+status --help`), a mistyped one
// (`+stauts -h`), or a prompt that starts with '+' (`"+1, ship it" -p`).
// Only main knows superclaude's command names, so main decides: a `--help`
// after a +command is superclaude's help, never claude's.
func ownCommandFirst(args []string) bool {
	return len(args) > 0 && len(args[0]) > 0 && args[0][0] == '+'
}

// isBareHelp: `--help` or `-h` alone, which main runs with its footer.
func isBareHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "--help" || args[0] == "-h")
}

// hasOwnOption reports whether args carry ownOption before any "--".
func hasOwnOption(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == ownOption || len(a) > len(ownOption) && a[:len(ownOption)+1] == ownOption+"=" {
			return true
		}
	}
	return false
}
