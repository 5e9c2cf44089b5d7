// Package safefs is the one way superclaude opens a file that a user, a
// cloned repository or a neighbour could have planted: its settings
// (.claude/settings.json, .claude/settings.local.json,
// ~/.claude/settings.json, a --settings file), its log, the sessions
// directory and everything in it (state files, the event log, the index),
// a session's log target, the launch directory of claude's settings, the
// notifications' config file and spool, and temporary files.
//
// What can be planted, and what this package does about it:
//
//   - A symbolic link, to make superclaude read or write elsewhere
//     (sessions/.events.jsonl -> ~/.bashrc, .claude/settings.json ->
//     /dev/zero). Below a directory superclaude owns (a sessions root, the
//     state directory, a launch directory), no link is followed: every
//     path is walked from the trusted directory one element at a time with
//     openat(2) and O_NOFOLLOW on a directory descriptor ([Dir]), so there
//     is no window between a check and its use in which a link could be
//     swapped in. In a tree the user lives in (a project's .claude
//     directory) a link is followed only while it stays in that tree
//     ([ReadIn]).
//   - A FIFO or a device where a file belongs, to hang superclaude (a FIFO
//     blocks its opener until a writer comes) or exhaust its memory
//     (/dev/zero never ends). Files are opened with O_NONBLOCK and used
//     only when fstat says they are regular files; what is read is bounded
//     by a limit the caller names.
//   - A file or directory of another user, or one others may write: a
//     neighbour who owns a project's sessions/ could steer the agent
//     through its state, or read its prompts from a log left open to
//     everyone. Every file and directory met is checked with fstat on the
//     descriptor itself: it must belong to the user or to root (who can do
//     anything already), and must not be writable by every user, nor by
//     a group another user is in (a private group of the owner's alone
//     passes, as OpenSSH lets it pass); what
//     superclaude writes must be the user's own. A file of the user's own
//     that others may read is tightened to 0600 before it is written. What fails
//     a check is refused with an error that names the file and says why
//     ([ErrUnsafe]); callers step aside (a fresh file beside it, the
//     user's own sessions directory) and say so.
//
// openat and O_NOFOLLOW behave the same on Linux and macOS, which is why
// this walk is used rather than Linux's openat2(RESOLVE_NO_SYMLINKS); on
// Linux, [Dir.ReadBeneath] takes the one-call shortcut where it can.
package safefs
