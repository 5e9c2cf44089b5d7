// Package state owns the .state.json contract between superclaude, the
// agent it supervises, and the agent's status line and hooks: every field
// of the file the replaced scripts wrote, typed, and superclaude's own
// beside them (docs/design.md#the-session-lifecycle).
//
// Each session is a directory under a sessions root
// (sessions/<name>/.state.json). Writes go through [Store.Update]: an
// exclusive flock on .state.json.lock beside the file, read, modify, write a
// temporary file, fsync, rename over the old one, fsync the directory. A
// reader therefore sees the old file or the new one, never half of one, and
// two writers never lose each other's changes (race R5: the replaced
// scripts' unlocked jq read-modify-writes did).
//
// Nothing under a sessions root is reached through a link: every path is
// walked from the root with openat and O_NOFOLLOW (safefile.go), files are
// opened without blocking and used only when they are regular files, and a
// state file is at most [MaxStateSize]. A cloned repository's
// sessions/x -> /elsewhere or sessions/.events.jsonl -> ~/.bashrc, or a
// FIFO in place of a state file, is refused or kept aside, never followed,
// written through or waited on.
//
// Fields this package does not know survive every write, so tools that add
// their own keys keep them. A file that fails to parse or validate is never
// overwritten or deleted: [Store.Update] moves it aside as
// .state.json.corrupt-<time> and returns an [*Error] naming the file and the
// field, and readers skip it with the same error. So is a state file that
// is too big, a link or a FIFO: the link is moved as a link (its target
// untouched), the FIFO as a FIFO.
//
// Lookup (which session belongs to this pane, or to this supervisor) goes
// through a small index under <root>/.index: one file per pane and per
// supervisor PID naming the session. A lookup reads one index file and the
// one state file it names, so it costs the same with 10 sessions or 10,000.
// The index is a cache, never trusted blindly: every hit is checked against
// the state file, and a miss, a mismatch or a sessions directory changed
// behind its back rebuilds it from the files.
//
// Every transition (lifecycle, overflowed, killRequested, sessionId, pid,
// fleetPaneId, skill, phase) is appended to <root>/.events.jsonl with its
// time, session, actor and reason, so that a restart can be explained later.
package state
