package supervise

import (
	"errors"
	"fmt"

	"github.com/superclaude/superclaude/state"
)

// learnConversation asks the profile which conversation the running agent
// has (Profile.Conversation) and binds a new answer to the session the
// agent works in, the way Claude Code's status line binds its own: the
// session's sessionId and transcript, the lifecycle from resuming to
// active, and the conversation's lease, so that no other supervisor resumes
// it while this one lives. A restart then resumes that conversation.
//
// An agent whose conversation cannot be learned — its profile cannot tell
// (noteUnknownConversation), or the hook says why not — is recorded as
// such in the session (conversationUnknown), which +status shows and +why
// tells: a restart of it starts a new conversation, never silently.
func (s *Supervisor) learnConversation() {
	hook := s.cfg.Profile.Conversation
	r, ok := s.running()
	if hook == nil || !ok {
		return
	}
	id, transcript, err := hook(r)
	switch {
	case err != nil:
		s.noteUnknownConversation(err.Error())
		return
	case id == "":
		return
	}
	s.mu.Lock()
	known := s.learned == id+"\x00"+transcript
	s.learned, s.unknownWhy = id+"\x00"+transcript, ""
	s.now.Conversation, s.now.Transcript = id, transcript
	s.mu.Unlock()
	if known {
		return
	}
	sess := s.mine()
	if sess == nil {
		return
	}
	_, err = sess.Store.Update(sess.Name, fmt.Sprintf("%s's conversation learned", s.cfg.Profile.Name), func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		if st.KillRequested || st.Overflowed || st.Lifecycle == state.Dehydrating {
			return state.ErrNoChange // a restart with a fresh context is under way
		}
		if st.SessionID == id && st.TranscriptPath == transcript && st.Lifecycle != state.Resuming && st.ConversationUnknown == "" {
			return state.ErrNoChange
		}
		st.SessionID, st.TranscriptPath, st.ConversationUnknown = id, transcript, ""
		if st.Lifecycle == state.Resuming {
			st.Lifecycle = state.Active
		}
		return nil
	})
	if err != nil && !errors.Is(err, state.ErrNoChange) && !errors.Is(err, state.ErrNoSession) {
		s.log.Warn("binding the agent's conversation", "session", sess.Name, "id", id, "err", err)
		return
	}
	if holder, ok, err := sess.Store.Lease(id, s.self); err != nil || !ok {
		s.log.Warn("conversation lease", "id", id, "holder", holder.PID, "err", err)
	}
	s.log.Info("learned the agent's conversation", "id", id, "transcript", transcript)
}

// noteUnknownConversation records, once per reason, that the agent's
// conversation cannot be learned and why: in the session, which +status
// shows, and so in the event log's transition, which +why tells.
func (s *Supervisor) noteUnknownConversation(why string) {
	s.mu.Lock()
	seen := why == s.unknownWhy
	s.unknownWhy, s.learned = why, ""
	s.mu.Unlock()
	if seen {
		return
	}
	sess := s.mine()
	if sess == nil {
		return
	}
	_, err := sess.Store.Update(sess.Name, "conversation unknown", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		if st.ConversationUnknown == why {
			return state.ErrNoChange
		}
		st.ConversationUnknown = why
		return nil
	})
	if err != nil && !errors.Is(err, state.ErrNoChange) && !errors.Is(err, state.ErrNoSession) {
		s.log.Warn("recording an unknown conversation", "session", sess.Name, "err", err)
	}
}

// cannotLearn is why a profile's conversation cannot be learned at all, or
// "" when it can: Claude Code's status line binds it; a profile with a
// Conversation hook learns it.
func (p Profile) cannotLearn() string {
	if p.ContextUsage == ContextStatusLine || p.Conversation != nil {
		return ""
	}
	name := p.Name
	if name == "" {
		name = "this"
	}
	return fmt.Sprintf("the %s profile cannot tell which conversation its agent has", name)
}
