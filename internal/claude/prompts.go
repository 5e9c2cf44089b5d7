package claude

import "encoding/json"

// SessionCommand is the seeds' /session command as superclaude ships it to
// Claude Code: a plugin command, which Claude Code names
// /<plugin>:<command>. A bare /session would be an unknown command in a
// fresh Claude, and an unknown first prompt is dropped unsent
// (CLAUDE-CODE-FACTS.md).
const SessionCommand = "/superclaude:session"

// DefaultPhase is the phase a restart prompt names when none was recorded.
const DefaultPhase = "Phase 1: Setup"

// ContinuePrompt is the first prompt of a fresh Claude after an overflow
// restart: the session command's continue with the session, skill and
// phase. It travels as one argument, never through a shell.
func ContinuePrompt(session, skill, phase string) string {
	if phase == "" {
		phase = DefaultPhase
	}
	p := SessionCommand + " continue --session " + session
	if skill != "" {
		p += " --skill " + skill
	}
	return p + " --phase " + quote(phase)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
