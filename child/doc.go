// Package child owns one agent process: starting it on a pty as the leader
// of its own session with the pty as its controlling terminal, putting our
// own terminal in raw mode and restoring it, forwarding the window size,
// copying input and output, and reporting exactly how the process ended.
//
// The terminal outlives the agents: a supervisor restarts agents inside one
// [Terminal], which stays raw from the first start until [Terminal.Restore].
// A single input pump reads our stdin for the whole run and writes to
// whichever agent is current, so no reader is left behind on an old pty to
// swallow a keystroke meant for the next agent. What is typed while no
// agent is current is held for the next one, and given to it once it
// reads keys, as [Typeahead] says (held.go). Output is copied until the
// pty reports EIO — what Linux and macOS return once the last process
// holding the terminal has gone — so the tail an agent prints as it exits
// is never lost.
//
// When superclaude's stdin or stdout is not a terminal (`superclaude -p hi |
// jq`), there is no pty: the agent inherits our standard files, exactly as
// if it had been run directly.
package child
