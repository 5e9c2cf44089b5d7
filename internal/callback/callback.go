// Package callback answers Claude Code's callbacks — the status line
// (`superclaude +statusline`, at every tick) and the hooks (`superclaude
// +hook EVENT`, before every tool call among others) — from its package
// initialiser, before the packages a callback has no use for initialise,
// and never builds superclaude's command tree.
//
// A callback is a whole process, started by claude and timed against a
// bare Go program that reads its input and prints a line (the benchmark
// suite's "Go floor", docs/benchmarks.md): what it pays over that floor is
// Go's start for a larger program, the initialisers of every package
// linked in, and its own work. Go initialises packages in a fixed order
// (since Go 1.21: by import path, each as soon as everything it imports
// has initialised), and this one imports only what a callback needs —
// internal/agentside, and internal/handover, whose checks come first — so
// its initialiser runs before the supervisor, the dashboard, cobra and
// the rest, and ends the process there.
// TestCallbacksComeBeforeTheHeavyInitialisers in cmd/superclaude fails
// when an import moves it after them.
//
// An initialiser runs on the main goroutine bound to the main thread:
// anything that waits in Go's scheduler there (a goroutine, a timer, a
// socket's deadline) hands the processor to another thread and back. What
// a callback does on its common path does not wait so (claude.ReadInput
// reads its stdin in poll(2)); a tick with something to store, which asks
// the supervisor over its socket, pays that hand-over.
//
// Only the plain forms are taken here — `+statusline` alone, `+hook EVENT`
// — and only when internal/handover found nothing to report; anything
// else (a flag, `--help`, more arguments) is main's, as it always was.
// Both ways run the same functions (agentside.RunStatusLine, Hook).
package callback

import (
	"os"

	"github.com/superclaude/superclaude/internal/agentside"
	"github.com/superclaude/superclaude/internal/handover"
)

func init() {
	if code, ok := Run(os.Args[1:]); ok {
		os.Exit(code)
	}
}

// Run answers the callback args names, when it is one this package takes,
// and returns its exit code and true; otherwise false, having done
// nothing.
func Run(args []string) (code int, ok bool) {
	if handover.PassThroughFailed() != nil {
		return 0, false // main reports it
	}
	switch {
	case len(args) == 1 && args[0] == "+statusline":
		return agentside.RunStatusLine(os.Stdin, os.Stdout), true
	case len(args) == 2 && args[0] == "+hook" && args[1] != "" && args[1][0] != '-':
		return agentside.Hook(args[1], os.Stdin, os.Stdout, os.Stderr), true
	}
	return 0, false
}
