package supervise

import (
	"errors"

	"github.com/superclaude/superclaude/internal/guard"
)

// Status is what a supervisor knows of its run now: what Supervisor.Status
// returns, and what its control socket answers a status request with (in
// the control protocol's own type, which is converted from this one, field
// for field).
type Status struct {
	// Supervisor is the supervisor's process identity, as
	// proc.Identity.String renders it.
	Supervisor string `json:"supervisor"`
	// Profile names the agent CLI's profile.
	Profile string `json:"profile,omitempty"`
	// Session and SessionDir are the session the agent works in, when the
	// run has sessions; Pane is the run's pane.
	Session    string `json:"session,omitempty"`
	SessionDir string `json:"sessionDir,omitempty"`
	Pane       string `json:"pane,omitempty"`
	// AgentPID is the running agent's PID; zero between two agents and
	// after the run.
	AgentPID int `json:"agentPid,omitempty"`
	// Agent is what the running agent is doing, as its CLI tells:
	// StatusBusy, StatusIdle, StatusWaiting, or StatusUnknown when the
	// profile cannot tell or what it tells cannot be read (AgentUnknown
	// says why); empty when no agent runs.
	Agent        string `json:"agent,omitempty"`
	AgentUnknown string `json:"agentUnknown,omitempty"`
	// Conversation is the conversation the running agent has: the one it
	// was started on (a resume), or the one learned from it since.
	// Learned says the profile learned it from the running agent itself
	// (Profile.Conversation), rather than from its command line alone.
	// ConversationUnknown says why it cannot be learned.
	Conversation        string `json:"conversation,omitempty"`
	Learned             bool   `json:"learned,omitempty"`
	ConversationUnknown string `json:"conversationUnknown,omitempty"`
	// Starts is how many times the agent has been started.
	Starts int `json:"starts"`
	// Socket is the supervisor's control socket.
	Socket string `json:"socket"`
	// Ended is set once the run has ended (Wait returns at once).
	Ended bool `json:"ended,omitempty"`
	// StoreProblem, when set, says why the status line's ticks cannot be
	// stored (a full disk), and SeenUsage is the context usage the last
	// one showed: the overflow guard goes by it, not by the stale usage
	// in the state.
	StoreProblem string  `json:"storeProblem,omitempty"`
	SeenUsage    float64 `json:"seenUsage,omitempty"`
}

// Status reports what the supervisor knows of its run now. It reads what
// the agent's CLI says it is doing and which conversation it has at the
// time of the call, not at the supervisor's last poll.
func (s *Supervisor) Status() Status {
	st := Status{Supervisor: s.self.String(), Profile: s.cfg.Profile.Name, Pane: s.cfg.Pane, Socket: s.socket,
		Starts: s.starts()}
	st.SeenUsage, st.StoreProblem = s.storeState()
	if sess := s.mine(); sess != nil {
		st.Session, st.SessionDir = sess.Name, sess.Dir
	}
	if a := s.currentAgent(); a != nil {
		st.AgentPID = a.PID()
		s.learnConversation()
		st.Agent = s.agentStatus()
		if st.Agent == StatusUnknown {
			st.AgentUnknown = s.statusUnknown()
		}
	}
	s.mu.Lock()
	st.Conversation, st.ConversationUnknown = s.now.Conversation, s.unknownWhy
	st.Learned = s.learned != "" && st.AgentPID != 0
	s.mu.Unlock()
	if why := s.cfg.Profile.cannotLearn(); why != "" {
		st.ConversationUnknown = why
	}
	select {
	case <-s.done:
		st.Ended = true
	default:
	}
	return st
}

// ErrEnded reports a request to a supervisor whose run has ended.
var ErrEnded = errors.New("the supervised run has ended")

// Restart restarts the agent on behalf of the program that started the
// supervisor, as the dashboard's restart does: once the agent has finished
// the turn it is in (at most Policy.TurnWait), unless now. What starts next
// is what Decide says of an agent killed for a restart: its conversation,
// resumed where it is known, or a fresh one that says why. A run with
// sessions restarts through its session, as `+session restart` does (a
// profile that dehydrates starts a fresh context from the saved one).
//
// Restart returns once the restart is under way, or, when it waits for
// the turn, once it is scheduled; it fails when no agent is running.
func (s *Supervisor) Restart(reason string, now bool) error {
	select {
	case <-s.done:
		return ErrEnded
	default:
	}
	if reason == "" {
		reason = "restart asked for by the program"
	}
	if s.cfg.Store != nil && s.mine() != nil {
		_, err := s.restartSession(restartRequest{Reason: reason, Now: now, ByPerson: true})
		return err
	}
	if s.currentAgent() == nil {
		return errors.New("no agent is running")
	}
	status := s.agentStatus()
	if now || s.cfg.Policy.TurnWait <= 0 || !mustWait(status) {
		if status == StatusUnknown && !now {
			reason += "; " + s.turnUnknown()
		}
		return s.restartNow(reason, nil, true)
	}
	if s.restartTaken() {
		return errRestartTaken
	}
	guard.Go(func() {
		waited, _ := s.awaitTurn(s.cfg.Policy.TurnWait)
		s.restartNow(reason, map[string]any{"waitedMs": waited.Milliseconds()}, true)
	})
	return nil
}

// Stop ends the run, as `+down` does: the agent finishes the turn it is in
// (at most Policy.TurnWait) unless now, then gets SIGTERM and the grace
// before SIGKILL; everything it started is swept. Wait then returns the
// agent's exit code. Stop does not wait for the end.
func (s *Supervisor) Stop(now bool) {
	select {
	case <-s.done:
		return
	default:
	}
	s.stopAfterTurn(now)
}
