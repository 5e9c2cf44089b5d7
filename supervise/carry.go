package supervise

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/state"
)

// carry adds to p the person's prompts that no turn had answered when the
// agent ended (st.PendingPrompts, noted by the agent's prompt hook before
// the agent sent them), so that the next agent's first prompt carries
// them — whatever the restart: an overflow, a blocked compaction, a limit,
// a restart asked for, a crash. A prompt whose own turn asked for the
// restart is carried too, told as begun (state.CarryText), so that what
// else it asked is not lost and the restart it asked for is not made
// again. ours reports a prompt superclaude typed
// itself (the continue after a limit), which is not the person's and is
// left out. typed are the lines the agent never took, read back from
// what was relayed to it (readBack): carried after the pending ones.
//
// It returns the plan and the prompts it could not carry, with why: the
// plan starts no agent (a halt, a stop), or the profile cannot give an
// agent a first prompt. The person's own exit carries nothing and loses
// nothing worth a word: they chose to leave.
func carry(p Plan, st *state.State, prof Profile, ours func(state.Prompt) bool, typed ...state.Prompt) (Plan, []state.Prompt, string) {
	var pending []state.Prompt
	if st != nil {
		for _, pr := range st.PendingPrompts {
			if ours == nil || !ours(pr) {
				pending = append(pending, pr)
			}
		}
	}
	pending = append(pending, typed...)
	if len(pending) == 0 {
		return p, nil, ""
	}
	switch next := p.leadsTo(); {
	case next.Action == Stop && (next.Cause == CauseUserExit || next.Cause == CauseStopped || next.Cause == ""):
		return p, nil, ""
	case next.Action == Stop:
		return p, pending, "superclaude is not starting the agent again"
	case !prof.CanCarry():
		return p, pending, fmt.Sprintf("the %s profile cannot give the agent a first prompt", prof.Name)
	}
	return p.withStart(func(next *Plan) { next.Carried = pending }), nil, ""
}

// quoted renders prompts for a message to the person.
func quoted(ps []state.Prompt) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = state.Quote(p.Text, 200)
	}
	return strings.Join(q, ", ")
}

// prompts is "prompt" or "prompts", for n of them.
func prompts(n int) string {
	if n == 1 {
		return "prompt"
	}
	return "prompts"
}

// told renders carried prompts for the event log, each with what the
// next agent is told of it (state.CarryText).
func told(ps []state.Prompt) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = state.Quote(p.Text, 200)
		switch {
		case p.TurnAskedRestart:
			q[i] += " (its turn asked for this restart: handed on as begun, the restart done)"
		case p.Typed:
			q[i] += " (typed, and not yet taken by the agent when it ended)"
		default:
			q[i] += " (not answered yet)"
		}
	}
	return strings.Join(q, ", ")
}

// notCarried reports whether a pending prompt is not the person's to
// carry: the continue the supervisor typed itself (typedByUs), or a
// prompt no hook of this supervisor's agents recorded (state.Prompt.By) —
// one in a state file a repository shipped, or written with `+session
// update`, which the next agent would otherwise take for the person's own
// words.
func (s *Supervisor) notCarried(p state.Prompt) bool {
	return p.By != s.self.String() || s.typedByUs(p)
}

// typedByUs reports whether a pending prompt is the continue the
// supervisor typed after a limit (continueAfterLimit), not the person's.
func (s *Supervisor) typedByUs(p state.Prompt) bool {
	s.mu.Lock()
	at := s.continuedAt
	s.mu.Unlock()
	return !at.IsZero() && p.Text == continuePrompt && !p.At.Before(at) && p.At.Sub(at) < 30*time.Second
}

// noteCarry tells the event log (+why) what became of the person's
// pending prompts at a decision, and, for those it could not carry, the
// person: on the terminal between two agents (say), or in the run's last
// message when no agent follows.
func (s *Supervisor) noteCarry(sess *state.Session, p Plan, lost []state.Prompt, why string) string {
	if then := p.leadsTo(); len(then.Carried) > 0 {
		s.eventIn(sess, "prompt-carried", "the next agent's first prompt carries the person's "+prompts(len(then.Carried))+" "+told(then.Carried),
			map[string]any{"prompts": len(then.Carried)})
	}
	if len(lost) == 0 {
		return ""
	}
	msg := fmt.Sprintf("superclaude: no answer to your %s %s had finished, and superclaude could not carry it over (%s): type it again if it still needs doing.",
		prompts(len(lost)), quoted(lost), why)
	s.eventIn(sess, "prompt-lost", msg, map[string]any{"prompts": len(lost)})
	s.log.Warn("a prompt could not be carried over", "why", why, "prompts", len(lost))
	return msg
}

// keepPending adds to st's pending prompts those of carried that no hook
// noted (state.Prompt.Typed) and that are not there yet, so that the
// turn which answers the next agent's first prompt answers them too
// (claude.AnswerPrompt), and a restart before it carries them again.
func keepPending(st *state.State, carried []state.Prompt) {
	for _, c := range carried {
		if c.Typed && !slices.ContainsFunc(st.PendingPrompts, func(p state.Prompt) bool { return p.Typed && p.Text == c.Text && p.At.Equal(c.At) }) {
			st.PendingPrompts = append(st.PendingPrompts, c)
		}
	}
	if n := len(st.PendingPrompts); n > claude.MaxPendingPrompts {
		st.PendingPrompts = append([]state.Prompt(nil), st.PendingPrompts[n-claude.MaxPendingPrompts:]...)
	}
}

// say writes a line for the person on the terminal between two agents,
// when the terminal is the supervisor's (the last agent's modes are
// switched off by then, and the next has not started).
func (s *Supervisor) say(line string) {
	if t := s.cfg.Terminal; t != nil && line != "" {
		t.Out().Write([]byte("\r\n" + strings.ReplaceAll(line, "\n", "\r\n") + "\r\n"))
	}
}
