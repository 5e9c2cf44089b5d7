package supervise

import (
	"fmt"
	"strings"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/state"
)

// A restart can come between the person's Enter and the agent's taking
// of that line: the keys reached the old agent, it was ended before it
// read them, its prompt hook never ran, and no pending prompt was there
// to carry (issue 18: a prompt typed at the instant of a restart). And
// the line the person was still typing sits in the input box of the
// agent that ends. So, for a profile whose agent notes the prompts it
// takes (Profile.TakesAsPrompt), the supervisor reads back what it
// relayed to the agent that ended (child.Agent.Typed) once it has exited:
//
//   - a line whose Enter reached the agent after the last prompt the
//     agent noted (st.LastPromptAt: noted after the Enter it answers),
//     shortly before it ended (untakenMargin), is one it never took: it
//     is carried like an unanswered prompt, marked as typed (carry), or,
//     for a profile that cannot carry, typed into the next agent;
//   - a command line among them (a slash command, a bash-mode line, for
//     which the agent notes nothing) is not given again — it may have
//     run — and the person is told it may not have;
//   - the unfinished line is put back in front of what the terminal holds
//     for the next agent, to wait in its input box (child.Terminal.GiveBack).
//
// A line the keys' editing cannot be followed through (↑, Tab) is not
// read back as words, and is named in +why.

// untakenMargin is how long before an agent's end — past the grace a
// killed agent has to exit, which the window adds — a line's Enter may
// have reached it and the agent not have noted it yet. Claude Code runs
// its prompt hook 20–140 ms after the Enter, at a prompt or with a turn
// under way, and superclaude's hook has noted it 18–48 ms after the Enter
// (measured on a loaded 2-core machine; docs/design.md, what we rely on);
// a claude told to end exits in 60 ms to 0.6 s, its SessionEnd hook cut
// off at 2–3 s. A line older than that with no prompt noted went to
// something else — a dialog's answer — and is not a prompt to carry.
var untakenMargin = 3 * time.Second

// readBack is what the supervisor reads back from an agent that ended.
type readBack struct {
	// Prompts are the lines the agent never took, to carry (Typed set).
	Prompts []state.Prompt
	// Commands are the command lines it may not have run.
	Commands []string
	// Tail is the line left unfinished in its input box.
	Tail string
	// Unknown counts the lines and tail whose words could not be read
	// back (edited with keys not followed).
	Unknown int
}

// readBackTyped reads typed, what was relayed to an agent of prof that
// ended at ended, against bound, the states then of the sessions it was
// bound to, in the order it was, the last the one at its end (see above);
// a line older than window at the end is not one it was about to take.
//
// A line is seen when the session bound as it was typed noted a prompt
// after it. A line may itself switch the session — the agent ran
// `superclaude +session activate X` for it — and then only the session
// it left noted it: that one is read too, or the line would be carried
// twice (notes).
func readBackTyped(typed child.Typed, bound []*state.State, prof Profile, ended time.Time, window time.Duration) readBack {
	var rb readBack
	if prof.TakesAsPrompt == nil {
		return rb
	}
	var ns []notes
	var pending []state.Prompt
	for i, st := range bound {
		var until time.Time // zero: bound at the end
		if i+1 < len(bound) {
			if bound[i+1] == nil || bound[i+1].ActivatedAt.IsZero() {
				continue // when the run left it is not known
			}
			until = bound[i+1].ActivatedAt
		}
		n := notesOf(typed, st, until)
		ns = append(ns, n)
		pending = append(pending, n.pending...)
	}
	for i, l := range typed.Lines {
		seen := false
		for _, n := range ns {
			seen = seen || n.saw(i, l)
		}
		switch {
		case l.Ours || seen || ended.Sub(l.At) > window:
			// superclaude's own typing; seen by the agent (a prompt was
			// noted after it); or long enough before the end that the
			// agent would have noted it, were it a prompt.
			continue
		case !l.Known:
			rb.Unknown++
			continue
		case strings.TrimSpace(l.Text) == "" || len([]rune(strings.TrimSpace(l.Text))) <= 1:
			continue // a dialog's answer
		case notedAfter(pending, l):
			continue // its hook ran after all: carried as pending
		case !prof.TakesAsPrompt(l.Text):
			rb.Commands = append(rb.Commands, l.Text)
			continue
		}
		rb.Prompts = append(rb.Prompts, state.Prompt{At: l.At, Text: l.Text, Typed: true})
	}
	switch {
	case !typed.TailKnown && strings.TrimSpace(typed.Tail) != "":
		rb.Unknown++
	case strings.TrimSpace(typed.Tail) != "":
		rb.Tail = typed.Tail
	}
	return rb
}

// notes is what a session the agent was bound to noted of its prompts
// while it was: the last prompt noted, and those pending.
type notes struct {
	last    time.Time
	pending []state.Prompt
	// line is the last typed line the hook noted, when it is pending (-1:
	// none): the lines after it were not, though their Enter came before
	// the hook's note (two Enters within the hook's 20–50 ms, the agent
	// ended between them).
	line int
}

// notesOf reads what st, a session's state, noted of typed's lines
// before until, when the run left it (zero: it did not). What it noted
// after is another agent's, the session having been taken over since.
func notesOf(typed child.Typed, st *state.State, until time.Time) notes {
	n := notes{line: -1}
	if st == nil {
		return n
	}
	before := func(t time.Time) bool { return until.IsZero() || t.Before(until) }
	if before(st.LastPromptAt) {
		n.last = st.LastPromptAt
	}
	for _, p := range st.PendingPrompts {
		if before(p.At) {
			n.pending = append(n.pending, p)
		}
	}
	for _, p := range n.pending {
		if !p.At.Equal(n.last) {
			continue
		}
		for i, l := range typed.Lines {
			if l.Text == p.Text && !l.At.After(n.last) {
				n.line = i
			}
		}
	}
	return n
}

// saw reports whether the agent took l, typed line i, by these notes: a
// prompt was noted after its Enter, and it is not past the line noted.
func (n notes) saw(i int, l child.TypedLine) bool {
	return !l.At.After(n.last) && (n.line < 0 || i <= n.line)
}

// noteBound notes sess as the session the agent is bound to now, when
// it is not the one noted last. The supervisor sees the binding at the
// agent's start, at its end and whenever its files change between: a
// session switched to and from unseen in between is not read back.
func (a *agentService) noteBound(sess *state.Session) {
	if sess == nil {
		return
	}
	if n := len(a.bound); n > 0 && a.bound[n-1].Dir == sess.Dir {
		return
	}
	a.bound = append(a.bound, sess)
}

// boundStates returns the states now of the sessions the agent that
// ended was bound to, in order, ending with st, the state of sess, the
// one it was bound to at its end. One that cannot be read is nil:
// neither it nor the one before it is read back (readBackTyped).
func (a *agentService) boundStates(sess *state.Session, st *state.State) []*state.State {
	left := a.bound
	if n := len(left); n > 0 && sess != nil && left[n-1].Dir == sess.Dir {
		left = left[:n-1]
	}
	var out []*state.State
	for _, b := range left {
		fresh, err := b.Store.Load(b.Name)
		if err != nil {
			fresh = nil
		}
		out = append(out, fresh)
	}
	return append(out, st)
}

// splitTyped says where the lines an agent never took go when p is
// decided: carried in the next agent's first prompt, or — for a profile
// that takes none, when an agent follows — typed into it again, as the
// person typed them. A plan that starts nothing leaves them to carry,
// which says them lost.
func splitTyped(p Plan, prof Profile, rb readBack) (toCarry, retype []state.Prompt) {
	if !prof.CanCarry() && p.leadsTo().Action != Stop {
		return nil, rb.Prompts
	}
	return rb.Prompts, nil
}

// notedAfter reports whether a pending prompt with l's words was noted
// after l's Enter: the hook ran after the state was read.
func notedAfter(pending []state.Prompt, l child.TypedLine) bool {
	for _, p := range pending {
		if p.Text == l.Text && !p.At.Before(l.At) {
			return true
		}
	}
	return false
}

// giveBack puts back, for the next agent that p starts, what the agent
// that ended was given and never took: the unfinished line, and the
// lines the profile could not carry (retype). It records in +why what
// it did, and what the person must know: commands that may not have run,
// words that could not be read back. A run that ends gives nothing back
// and says nothing of them: the person chose to leave, or is told the
// run's end; a prompt among them is said lost by noteCarry.
func (s *Supervisor) giveBack(sess *state.Session, p Plan, rb readBack, retype []state.Prompt) {
	if p.leadsTo().Action == Stop {
		return
	}
	name := s.cfg.Profile.Name
	g := child.GivesBack{Tail: rb.Tail}
	for _, pr := range retype {
		g.Lines = append(g.Lines, pr.Text)
	}
	if !g.Empty() {
		s.cfg.Terminal.GiveBack(g)
	}
	if len(retype) > 0 {
		s.eventIn(sess, "typed-given-back", fmt.Sprintf("the person typed %s %s that %s had not taken yet when it ended; the %s profile cannot carry them in a first prompt, so they are typed into the next %s",
			prompts(len(retype)), quoted(retype), name, name, name), map[string]any{"prompts": len(retype)})
	}
	if rb.Tail != "" {
		s.eventIn(sess, "typed-given-back", fmt.Sprintf("the person was typing %s in %s's input box when it ended; it waits in the next %s's, unsent",
			state.Quote(rb.Tail, 200), name, name), nil)
	}
	var lines []string
	if len(rb.Commands) > 0 {
		q := make([]string, len(rb.Commands))
		for i, c := range rb.Commands {
			q[i] = state.Quote(c, 200)
		}
		msg := fmt.Sprintf("superclaude: %s may not have run what you typed just before it restarted: %s. Type it again if it still needs doing.",
			name, strings.Join(q, ", "))
		s.eventIn(sess, "typed-command", msg, map[string]any{"commands": len(rb.Commands)})
		lines = append(lines, msg)
	}
	if rb.Unknown > 0 {
		msg := fmt.Sprintf("superclaude: what you typed into %s just before it restarted was edited with keys superclaude does not follow (↑, Tab …), and is not passed on: type it again if %s did not take it.",
			name, name)
		s.eventIn(sess, "typed-unknown", msg, map[string]any{"lines": rb.Unknown})
		lines = append(lines, msg)
	}
	s.say(strings.Join(lines, "\n"))
}
