package supervise

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// continuePrompt is what the supervisor types into an agent that waits at
// its prompt once the limit that stopped it has reset: the lost prompt
// goes along by itself (docs/claude-code-limits.md), "continue" is enough.
const continuePrompt = "continue"

// limitStaggerMax bounds the extra wait of a fleet pane after a limit's
// reset: panes that hit one limit together do not all go on in the same
// second.
const limitStaggerMax = 20 * time.Second

// limitStagger is this supervisor's extra wait after a limit's reset: in a
// labelled (fleet) pane, a fixed offset in [0, limitStaggerMax) taken from
// the pane's identity; elsewhere none.
func (s *Supervisor) limitStagger() time.Duration {
	if !tmux.Labelled(s.cfg.Pane) {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(s.cfg.Pane))
	return time.Duration(h.Sum32()%uint32(limitStaggerMax/time.Second)) * time.Second
}

// claudeContinueGrace is how long after a reset superclaude leaves an
// agent whose own auto-continue is on (claude's autoContinueAtUsageLimit)
// to go on by itself before it types continue: claude fires its own
// continuation some time after the reset, and a second one typed beside
// it would double the turn.
const claudeContinueGrace = 3 * time.Minute

// What the supervisor does about a limit at one reading (limitNext).
type limitStep int

const (
	limitWait   limitStep = iota // not yet
	limitType                    // type the continue prompt
	limitWentOn                  // the agent went on without superclaude: clear the limit
)

// limitNext decides, at one reading of the agent's status, what to do
// about the limit st records: nothing before the reset (and this pane's
// stagger); once it has reset, an agent that works again went on without
// superclaude — claude's own auto-continue, or the person — and the limit
// is only cleared; an agent idle at its prompt for two readings in a row
// (claude shows idle for a moment between turns, and text typed while it
// works is queued or goes into a dialog) is continued, after
// claudeContinueGrace more when claude's own auto-continue is on. Never
// while it waits for the person (a dialog).
func limitNext(st *state.State, now time.Time, stagger time.Duration, status, before string) limitStep {
	if st == nil || st.Limit == "" || now.Before(st.LimitedUntil.Add(stagger)) {
		return limitWait
	}
	if status == StatusBusy {
		return limitWentOn
	}
	if st.LimitContinue == state.LimitByClaude && now.Before(st.LimitedUntil.Add(stagger+claudeContinueGrace)) {
		return limitWait
	}
	if status == StatusIdle && before == StatusIdle {
		return limitType
	}
	return limitWait
}

// limitWant says what a limit wants of the person.
func limitWant(st *state.State) string {
	at := st.LimitedUntil.Local().Format("15:04")
	switch st.LimitContinue {
	case state.LimitByNobody:
		return "the " + st.Limit + " resets at " + at + "; type to go on then"
	case state.LimitByClaude:
		return "the " + st.Limit + " resets at " + at + "; claude goes on by itself then"
	}
	return "the " + st.Limit + " resets at " + at + "; superclaude goes on then"
}

// wentOnWithout says who went on after a limit when superclaude did not:
// the person, when a prompt of theirs came after the reset; else claude
// by itself.
func wentOnWithout(st *state.State) string {
	for _, p := range st.PendingPrompts {
		if p.At.After(st.LimitedUntil) {
			return "the person went on after the reset; superclaude typed nothing"
		}
	}
	if st.LimitContinue == state.LimitByClaude {
		return "claude continued by itself after the reset (its own auto-continue is on); superclaude typed nothing"
	}
	return "claude went on by itself after the reset; superclaude typed nothing"
}

// clearLimit clears the session's limit once the agent went on without
// superclaude, and says who did in the event log.
func (s *Supervisor) clearLimit(sess *state.Session) {
	limit, who := sess.State.Limit, wentOnWithout(sess.State)
	if !s.dropLimit(sess, "the "+limit+" reset: "+who) {
		return
	}
	s.eventIn(sess, "limit-continue", "the "+limit+" reset: "+who, map[string]any{"by": whoKey(who)})
}

// dropLimit clears the session's limit, for reason; false when it could
// not be written.
func (s *Supervisor) dropLimit(sess *state.Session, reason string) bool {
	_, err := sess.Store.Update(sess.Name, reason, func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		st.Limit, st.LimitedUntil, st.LimitContinue = "", time.Time{}, ""
		return nil
	})
	if err != nil {
		s.log.Warn("clearing the limit", "session", sess.Name, "err", err)
	}
	return err == nil
}

func whoKey(who string) string {
	if strings.HasPrefix(who, "the person") {
		return "person"
	}
	return "claude"
}

// continueAfterLimit goes on after a limit: it types continuePrompt into
// the idle agent and clears the session's limit. The event log says so.
func (s *Supervisor) continueAfterLimit(sess *state.Session) {
	ag := s.currentAgent()
	if ag == nil {
		return
	}
	limit := sess.State.Limit
	if !s.dropLimit(sess, "the "+limit+" reset: continuing") {
		return
	}
	s.mu.Lock()
	s.continuedAt = time.Now()
	s.mu.Unlock()
	if err := ag.Type(continuePrompt); err != nil {
		s.log.Warn("typing the continue prompt", "err", err)
		return
	}
	s.eventIn(sess, "limit-continue", "the "+limit+" reset: superclaude typed "+continuePrompt, map[string]any{"by": "superclaude"})
	s.log.Info("continued after a limit", "limit", limit)
}
