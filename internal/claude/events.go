package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/superclaude/superclaude/state"
)

// UserPromptSubmit injects instructions before the user's prompt reaches
// the model: the boot instructions of the session gate (S10: no session;
// S11: the session is completed), and a reminder when the context has
// overflowed and the agent has not dehydrated yet.
func UserPromptSubmit(in HookInput, sess *state.Session, p Policy) Answer {
	var st *state.State
	if sess != nil {
		st = sess.State
	}
	if p.SessionRequired {
		switch {
		case st == nil || st.Auto:
			return Answer{Context: "superclaude: no session is active. Load your standards, then ask the user " +
				"with AskUserQuestion which skill to use. Tools are blocked until a skill activates a session."}
		case st.Lifecycle == state.Completed:
			return Answer{Context: fmt.Sprintf("superclaude: the previous session %s (skill %s) is completed. Load your "+
				"standards, then ask the user with AskUserQuestion whether to continue it or start another skill.",
				sess.Name, orNone(st.Skill))}
		}
	}
	if st != nil && st.Overflowed && st.Lifecycle != state.Dehydrating && st.Lifecycle != state.Restarting && !st.KillRequested {
		return Answer{Context: fmt.Sprintf("superclaude: the context window overflowed. Before anything else run %s "+
			"dehydrate restart; tools are blocked until then.", SessionCommand)}
	}
	return Answer{}
}

// PreCompact stops automatic compaction (exit 2: no request is sent) and
// treats it as an overflow: a second guard that costs no API call, for when
// the status line lagged behind. Manual /compact — the user's own choice —
// passes. It reports whether the session must be marked overflowed.
//
// A blocked compaction is a dead end for the agent: claude shows "Context
// limit reached" and every later prompt, /superclaude:session dehydrate
// included, hits the same blocked compaction (TestBlockedCompactionRecovers
// in e2e shows it with the real CLI). So
// the answer also asks the supervisor to dehydrate and restart the agent
// itself (Answer.Restart).
func PreCompact(in HookInput, sess *state.State) (Answer, bool) {
	if in.Trigger != "auto" {
		return Answer{}, false
	}
	reason := fmt.Sprintf("superclaude: automatic compaction is off under superclaude; the context overflowed. "+
		"superclaude saves your context and restarts you fresh, and %s continue restores it; "+
		"should that not happen, run %s dehydrate restart.", SessionCommand, SessionCommand)
	return Answer{Block: true, Reason: reason, Restart: "automatic compaction was blocked: the context window is full"},
		sess != nil && !sess.Overflowed
}

// PromptTooLong reports whether a StopFailure says the conversation no
// longer fits the context window.
func PromptTooLong(in HookInput) bool {
	text := strings.ToLower(in.ErrorDetails + " " + in.LastAssistantMessage)
	return strings.Contains(text, "prompt is too long")
}

// StopFailure answers a turn that failed. A prompt too long for the
// context window is an overflow the agent cannot recover from: the session
// is marked overflowed and the supervisor asked to dehydrate and restart.
func StopFailure(in HookInput, sess *state.State) (Answer, bool) {
	if !PromptTooLong(in) {
		return Answer{}, false
	}
	return Answer{Restart: "claude reported that the prompt is too long for the context window"}, sess != nil && !sess.Overflowed
}

// SessionStart tells the model where it stands, by how this conversation
// started (the hook's source: startup, resume, clear or compact): a fresh
// start after an overflow restart points to the dehydrated context; a
// resume, a /clear and a compaction each get a continuation note with the
// session's phase, a checkpoint of where the work was.
func SessionStart(in HookInput, sess *state.Session) Answer {
	if sess == nil {
		return Answer{}
	}
	st := sess.State
	where := fmt.Sprintf("session %s (%s)", sess.Name, sess.Dir)
	var notes []string
	switch in.Source {
	case "startup":
		dehydrated := filepath.Join(sess.Dir, state.DehydratedFile)
		if _, err := os.Stat(dehydrated); err == nil && (st.Lifecycle == state.Restarting || st.Overflowed || st.Handoff != "") {
			// Said as it happened: a restart someone asked for (+session
			// restart, the dashboard) is no overflow, and the model was
			// once told both at once.
			why := "superclaude restarted the agent because the context window had filled up"
			if !st.Overflowed {
				why = "the agent was restarted on request"
			}
			notes = append(notes, fmt.Sprintf("superclaude: this is a fresh context in %s: %s. "+
				"Your previous context is saved in %s; %s continue restores it.", where, why, dehydrated, SessionCommand))
			if st.Handoff != "" {
				// The handoff marker: the dehydrate and restart in the
				// saved context were the predecessor's, and done.
				notes = append(notes, fmt.Sprintf("The handoff is done (%s): your predecessor already saved its context "+
					"and restarted; do not run %s dehydrate or restart again, continue the work.", st.Handoff, SessionCommand))
			}
		} else {
			notes = append(notes, "superclaude: this conversation runs in "+where+".")
		}
	case "resume":
		notes = append(notes, "superclaude: resumed the conversation of "+where+".")
	case "clear":
		notes = append(notes, "superclaude: the conversation was cleared; "+where+" continues.")
	case "compact":
		notes = append(notes, "superclaude: context compacted. Continue your previous task in "+where+".")
	default:
		return Answer{}
	}
	if st.CurrentPhase != "" {
		notes = append(notes, "Current phase: "+st.CurrentPhase+".")
	}
	if st.Skill != "" {
		notes = append(notes, "Skill: "+st.Skill+".")
	}
	if st.TargetFile != "" {
		notes = append(notes, "Log file: "+st.TargetFile+".")
	}
	return Answer{Context: strings.Join(notes, " ")}
}
