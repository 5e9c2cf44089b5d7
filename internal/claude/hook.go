package claude

import (
	"errors"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Hook answers one hook event (`superclaude +hook SUB`) for the agent whose
// session is sess — nil when it has none — and makes the state changes the
// answer needs, under the session's lock. It is the one code path behind
// every hook; cmd/superclaude only reads stdin, finds the session and
// prints the answer.
func Hook(sub string, in HookInput, sess *state.Session, p Policy) (Answer, error) {
	var st *state.State
	if sess != nil {
		st = sess.State
	}
	switch sub {
	case "pre-tool-use":
		a, change := PreToolUse(in, st, p)
		if sess == nil || change.Empty() {
			return a, nil
		}
		// Decide again under the lock: two tool calls at once must both
		// be counted.
		_, err := sess.Store.Update(sess.Name, "hook pre-tool-use", func(locked *state.State) error {
			if !locked.Exists() {
				return state.ErrNoSession
			}
			var c Change
			a, c = PreToolUse(in, locked, p)
			if c.Empty() {
				return state.ErrNoChange
			}
			c.Apply(locked)
			return nil
		})
		return a, ignoreGone(err)
	case "user-prompt-submit":
		a := UserPromptSubmit(in, sess, p)
		if sess == nil {
			return a, nil
		}
		// The prompt is kept until its turn ends, so that a restart
		// before then carries it over (RecordPrompt).
		now := time.Now()
		_, err := sess.Store.Update(sess.Name, "hook user-prompt-submit: the person's prompt noted", func(locked *state.State) error {
			if !locked.Exists() {
				return state.ErrNoSession
			}
			if !RecordPrompt(locked, in, now, p.Supervisor) {
				return state.ErrNoChange
			}
			return nil
		})
		return a, ignoreGone(err)
	case "stop":
		if sess == nil || len(st.PendingPrompts) == 0 {
			return Answer{}, nil
		}
		_, err := sess.Store.Update(sess.Name, "hook stop: the turn answered the pending prompts", func(locked *state.State) error {
			if !locked.Exists() {
				return state.ErrNoSession
			}
			if !AnswerPrompt(locked, in) {
				return state.ErrNoChange
			}
			return nil
		})
		return Answer{}, ignoreGone(err)
	case "stop-failure":
		if l, ok := StopFailureLimit(in, time.Now()); ok {
			// A limit: the agent waits at its prompt; the supervisor goes
			// on after the reset. Recorded, never counted as a crash.
			if sess == nil {
				return Answer{}, nil
			}
			by := p.limitContinue()
			_, err := sess.Store.Update(sess.Name, "hook stop-failure: "+l.Kind, func(locked *state.State) error {
				if !locked.Exists() {
					return state.ErrNoSession
				}
				locked.Limit, locked.LimitedUntil = l.Kind, l.Until
				locked.LimitContinue = by
				return nil
			})
			return Answer{}, ignoreGone(err)
		}
		fallthrough
	case "pre-compact":
		a, mark := PreCompact(in, st)
		if sub == "stop-failure" {
			a, mark = StopFailure(in, st)
		}
		if !mark {
			return a, nil
		}
		_, err := sess.Store.Update(sess.Name, "hook "+sub+": the context overflowed", func(locked *state.State) error {
			if !locked.Exists() {
				return state.ErrNoSession
			}
			if locked.Overflowed {
				return state.ErrNoChange
			}
			locked.Overflowed = true
			return nil
		})
		return a, ignoreGone(err)
	case "session-start":
		a := SessionStart(in, sess)
		if sess == nil || st.Handoff == "" || in.Source != "startup" {
			return a, nil
		}
		// The handoff marker is read once: cleared as it is delivered.
		_, err := sess.Store.Update(sess.Name, "hook session-start: the handoff marker delivered", func(locked *state.State) error {
			if !locked.Exists() {
				return state.ErrNoSession
			}
			if locked.Handoff == "" {
				return state.ErrNoChange
			}
			locked.Handoff = ""
			return nil
		})
		return a, ignoreGone(err)
	}
	return Answer{}, nil
}

func ignoreGone(err error) error {
	if errors.Is(err, state.ErrNoSession) {
		return nil
	}
	return err
}
