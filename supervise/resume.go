package supervise

import (
	"fmt"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Resume policies: what a start does when its pane's previous conversation
// can be resumed (Config.ResumePolicy).
const (
	// ResumeAuto resumes it.
	ResumeAuto = "auto"
	// ResumeAsk asks (Config.Ask) when the user ended that conversation
	// themselves, or when the pane is unlabelled, and resumes otherwise (a
	// fleet stopped, a crash, a tmux server gone: S3).
	ResumeAsk = "ask"
	// ResumeNever starts a new conversation.
	ResumeNever = "never"
)

// CheckResumePolicy returns an error naming the policies unless p is one.
func CheckResumePolicy(p string) error {
	switch p {
	case ResumeAuto, ResumeAsk, ResumeNever:
		return nil
	}
	return fmt.Errorf("resume policy %q: want %s, %s or %s", p, ResumeAuto, ResumeAsk, ResumeNever)
}

// Choice is the answer to an Offer.
type Choice int

const (
	// ChooseResume resumes the conversation.
	ChooseResume Choice = iota
	// ChooseNew starts a new conversation in the same session.
	ChooseNew
	// ChooseAbort starts nothing: superclaude exits.
	ChooseAbort
)

// Offer is what Config.Ask is asked: resume this conversation?
type Offer struct {
	Session, Dir string
	Skill, Phase string
	// Conversation is the conversation's id; Transcript its transcript.
	Conversation, Transcript string
	// Ended is when its last agent ended — or, when its supervisor ended
	// without recording that (killed outright), the last activity its
	// state records: no heartbeat says when it died. CostUSD is what it
	// has cost.
	Ended   time.Time
	CostUSD float64
}

// resumeMode says what a start does with a resumable conversation st of
// its pane, under policy: resume it, start new, or ask. labelled says the
// pane's identity survives a tmux server (a fleet's): an unlabelled pane's
// conversation is never resumed without asking.
func resumeMode(st *state.State, labelled bool, policy string) Choice {
	switch policy {
	case ResumeNever:
		return ChooseNew
	case ResumeAuto:
		return ChooseResume
	}
	if labelled && st.LastExit != CauseUserExit {
		return ChooseResume
	}
	return askUser
}

// askUser is resumeMode's third answer: put the Offer.
const askUser Choice = -1

// offerOf is the Offer of a pane's session.
func offerOf(sess *state.Session) Offer {
	st := sess.State
	ended := st.LastExitAt
	if ended.IsZero() {
		ended = st.LastActivity()
	}
	return Offer{Session: sess.Name, Dir: sess.Dir, Skill: st.Skill, Phase: st.CurrentPhase,
		Conversation: st.SessionID, Transcript: st.TranscriptPath, Ended: ended, CostUSD: st.CostUSD}
}
