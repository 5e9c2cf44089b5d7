package claude

import "encoding/json"

// SessionCommand is the seeds' /session command as superclaude ships it to
// Claude Code: a plugin command, which Claude Code names
// /<plugin>:<command>. A bare /session would be an unknown command in a
// fresh Claude, and an unknown first prompt is dropped unsent
// (docs/design.md#what-we-rely-on-from-the-agent-clis).
const SessionCommand = "/superclaude:session"

// ContinuePrompt is the first prompt of a fresh Claude after an overflow
// restart: the session command's continue with the session, skill and
// phase, each only when recorded. (A phase was once made up when none was,
// the seeds' "Phase 1: Setup", and the fresh Claude was told to carry on
// at a phase the work never had.) It travels as one argument, never
// through a shell.
func ContinuePrompt(session, skill, phase string) string {
	p := SessionCommand + " continue --session " + session
	if skill != "" {
		p += " --skill " + skill
	}
	if phase != "" {
		p += " --phase " + quote(phase)
	}
	return p
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
