// Package hosts is the user's other machines — the hosts their fleets run
// on — as superclaude on this one reaches them: a view that covers them
// (+status, the dashboard) asks each at once, for a bounded time, and
// shows a host that did not answer as unreachable; a command about one
// session (+why, +history, +session restart) that does not find it here
// finds the one host that has it and runs there; and this machine answers
// the same requests when another asks it (`superclaude +remote`, over
// ssh). The transport is internal/remote's; what a fleet's part on a host
// is, internal/fleet's; what a session is, internal/sessions'.
package hosts
