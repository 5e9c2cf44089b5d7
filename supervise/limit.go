package supervise

import (
	"hash/fnv"
	"time"

	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// ContinuePrompt is what the supervisor types into an agent that waits at
// its prompt once the limit that stopped it has reset: the lost prompt
// goes along by itself (docs/claude-code-limits.md), "continue" is enough.
const ContinuePrompt = "continue"

// LimitStaggerMax bounds the extra wait of a fleet pane after a limit's
// reset: panes that hit one limit together do not all go on in the same
// second.
const LimitStaggerMax = 20 * time.Second

// limitStagger is this supervisor's extra wait after a limit's reset: in a
// labelled (fleet) pane, a fixed offset in [0, LimitStaggerMax) taken from
// the pane's identity; elsewhere none.
func (s *Supervisor) limitStagger() time.Duration {
	if !tmux.Labelled(s.cfg.Pane) {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(s.cfg.Pane))
	return time.Duration(h.Sum32()%uint32(LimitStaggerMax/time.Second)) * time.Second
}

// limitDue reports whether the agent, stopped by a limit that st records,
// is to be continued now: the limit has reset (and this pane's stagger
// passed), and the agent has been idle at its prompt for two readings in a
// row — claude shows idle for a moment between turns, and text typed while
// it works is queued or goes into a dialog.
func limitDue(st *state.State, now time.Time, stagger time.Duration, status, before string) bool {
	return st != nil && st.Limit != "" && !now.Before(st.LimitedUntil.Add(stagger)) &&
		status == StatusIdle && before == StatusIdle
}

// continueAfterLimit goes on after a limit: it types ContinuePrompt into
// the idle agent and clears the session's limit. The event log says so.
func (s *Supervisor) continueAfterLimit(sess *state.Session) {
	ag := s.currentAgent()
	if ag == nil {
		return
	}
	limit := sess.State.Limit
	_, err := sess.Store.Update(sess.Name, "the "+limit+" reset: continuing", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		st.Limit, st.LimitedUntil = "", time.Time{}
		return nil
	})
	if err != nil {
		s.log.Warn("clearing the limit", "session", sess.Name, "err", err)
		return
	}
	s.mu.Lock()
	s.continuedAt = time.Now()
	s.mu.Unlock()
	if err := ag.Type(ContinuePrompt); err != nil {
		s.log.Warn("typing the continue prompt", "err", err)
		return
	}
	s.eventIn(sess, "limit-continue", "the "+limit+" reset: typed "+ContinuePrompt, nil)
	s.log.Info("continued after a limit", "limit", limit)
}
