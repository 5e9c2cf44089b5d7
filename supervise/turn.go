package supervise

import (
	"fmt"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/state"
)

// agentStatus is what the running agent says it is doing (Profile.Status):
// StatusUnknown when the profile cannot tell, or what it tells could not
// be read twice in a row (statusUnknown says why); "" when no agent runs,
// the agent has not said yet, or a first reading failed.
func (s *Supervisor) agentStatus() string {
	r, ok := s.running()
	switch {
	case !ok:
		return ""
	case s.cfg.Profile.Status == nil:
		return StatusUnknown
	}
	st, err := s.cfg.Profile.Status(r)
	s.mu.Lock()
	seen := err != nil && s.statusErr == err.Error()
	s.statusErr = ""
	if err != nil {
		s.statusErr = err.Error()
		s.statusWhy = "its status cannot be read: " + trouble(err)
	}
	s.mu.Unlock()
	if err != nil {
		// An unreadable file of the agent's (a rollout, a chat file) is
		// the agent's business: it keeps running, shown as unknown with
		// why (+status). A first failure lets the last status stand —
		// a file read as its CLI rewrites it is garbage for a moment —
		// and is said once per cause, in the log.
		if !seen {
			s.log.Warn("cannot read what the agent is doing", "profile", s.cfg.Profile.Name, "err", err)
			return ""
		}
		return StatusUnknown
	}
	return st
}

// statusUnknown says, in a few words for +status, why the agent's status
// is StatusUnknown: its CLI does not tell, or the last reading failed.
func (s *Supervisor) statusUnknown() string {
	if s.cfg.Profile.Status == nil {
		return "its CLI does not tell"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statusErr == "" {
		return ""
	}
	return s.statusWhy
}

// turnUnknown says, for the reason of a restart that did not wait for the
// agent's turn, why it could not: the agent's status is unknown.
func (s *Supervisor) turnUnknown() string {
	if s.cfg.Profile.Status != nil {
		if why := s.statusUnknown(); why != "" {
			return "the agent's " + strings.TrimPrefix(why, "its ") + ", so the restart did not wait for a turn to end"
		}
	}
	return fmt.Sprintf("the %s profile does not tell whether the agent is in the middle of a turn, so the restart did not wait for one to end", s.cfg.Profile.Name)
}

// agentWatch is what the running agent's profile names to watch
// (Profile.Watch): nothing when it names nothing, or no agent runs.
func (s *Supervisor) agentWatch() WatchSet {
	r, ok := s.running()
	if s.cfg.Profile.Watch == nil || !ok {
		return WatchSet{}
	}
	return s.cfg.Profile.Watch(r)
}

// statusLook returns a channel closed at the next look at what the agent
// says it is doing (noteStatus): the waiter then reads the status again.
func (s *Supervisor) statusLook() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statusLooked == nil {
		s.statusLooked = make(chan struct{})
	}
	return s.statusLooked
}

// mustWait reports whether a restart or stop asked for from outside waits
// for the agent: only while a turn is under way. An agent at its prompt
// has nothing to lose, and one waiting for the user's answer may wait
// for ever.
func mustWait(status string) bool { return status == StatusBusy }

// awaitTurn waits, for at most max, until the agent is not in the middle
// of a turn, and reports how long it waited and whether the turn ended in
// time. A restart asked for from outside the agent (`+session restart
// --session`, SIGUSR1, `+down`) goes through it, so that claude is not
// killed mid-turn, in the middle of an edit.
//
// It reads the status again at each look of the waiting supervisor (the
// agent's files changed), and gives up once, at max: no polling.
func (s *Supervisor) awaitTurn(max time.Duration) (time.Duration, bool) {
	start := time.Now()
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	for {
		change := s.statusLook() // before the read: a look after it is not missed
		if !mustWait(s.agentStatus()) {
			return time.Since(start), true
		}
		select {
		case <-change:
		case <-deadline.C:
			return time.Since(start), false
		}
	}
}

// noteStatus records what the agent is doing, at each look: a change in
// the session's state (agentStatus, which +status shows: busy, idle, or
// waiting for the user's input) and through Config.OnStatus (superclaude
// marks a waiting tmux pane). It writes only a change: no heartbeat. A
// view tells a live supervisor from a dead one by its PID and start time,
// and a hung one by asking it (control.Ask); a state file rewritten every
// minute for that cost every idle supervisor a wakeup a minute and two
// fsyncs (issue 22).
func (s *Supervisor) noteStatus(status string) {
	changed := status != s.lastStatus
	if changed {
		was := s.lastStatus
		s.lastStatus = status
		if s.cfg.OnStatus != nil {
			s.cfg.OnStatus(status)
		}
		switch {
		case status == StatusWaiting:
			s.attention(AttentionNeedsInput, s.session(), "answer the agent: it waits for your input", time.Time{})
		case was == StatusBusy && status == StatusIdle:
			s.attention(AttentionTurnEnded, s.session(), "the agent finished its turn and waits at its prompt", time.Time{})
		}
	}
	// Every look wakes whoever waits on the status, changed or not: a
	// waiter reads the status itself, and may have read a turn under way
	// that no look saw — idle at one look, busy at the waiter's read,
	// idle again at the next look is no change here, and a waiter woken
	// only by changes slept through the turn's end for the whole turn
	// gate (TestAStopAfterATurnTheLooksNeverSawEnds).
	s.mu.Lock()
	if s.statusLooked != nil {
		close(s.statusLooked)
		s.statusLooked = nil
	}
	s.mu.Unlock()
	if s.currentAgent() == nil {
		return
	}
	// Against the state as stored, not the last status seen: a change
	// whose write was missed (no session found at that look, a failed
	// update) is written at the next look instead of never.
	sess := s.mine()
	name := s.cfg.Profile.Name
	why := ""
	if status == StatusUnknown {
		why = s.statusUnknown()
	}
	same := func(st *state.State) bool {
		return (status == "" || st.AgentStatus == status && st.AgentUnknown == why) && st.AgentProfile == name
	}
	if sess == nil || same(sess.State) {
		return
	}
	_, err := sess.Store.Update(sess.Name, "agent status", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		if same(st) {
			return state.ErrNoChange
		}
		st.AgentProfile = name
		if st.AgentStatus != status && status != "" {
			st.AgentStatus, st.AgentStatusAt = status, time.Now()
		}
		if status != "" {
			st.AgentUnknown = why
		}
		return nil
	})
	if err != nil {
		s.log.Warn("recording the agent's status", "session", sess.Name, "err", err)
	}
}

// restartAfterTurn kills the agent for a restart once it has finished its
// turn (at most Policy.TurnWait), without writing a restart request: what
// starts next is decided from the state (SIGUSR1, the seeds' watchdog
// signal). The wait is recorded in the event log.
func (s *Supervisor) restartAfterTurn(reason string, byPerson bool) {
	guard.Go(func() {
		var waited time.Duration
		if s.cfg.Policy.TurnWait > 0 {
			waited, _ = s.awaitTurn(s.cfg.Policy.TurnWait)
		}
		s.restartNow(reason, map[string]any{"waitedMs": waited.Milliseconds()}, byPerson)
	})
}

// restartNow kills the agent for a restart that writes no request — what
// starts next is decided from the state — and records it in the event log
// with fields. A request the agent's one restart refuses (restartclaim.go)
// writes nothing. byPerson says the person asked for it (Exit.ByPerson).
func (s *Supervisor) restartNow(reason string, fields map[string]any, byPerson bool) error {
	claim, err := s.takeRestart()
	if err != nil {
		s.log.Info(refusedRestart(reason, err))
		return err
	}
	if !claim.kill(reason, byPerson) {
		claim.end(false)
		return errNoAgent
	}
	s.event("restart", reason, fields)
	claim.end(true)
	return nil
}
