package supervise

import (
	"fmt"
	"strings"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/state"
)

// What the person types while no agent runs — from one agent's end to
// the next one's start: a kill, its grace, the sweep, a crash's pause, a
// limit's wait — is held by the terminal (child/held.go) and given to the
// next agent once it reads keys: the text, as typed; the keys that acted
// on the screen of the agent that ended (Esc, an arrow, Ctrl-C, the "1"
// and Enter of a dialog) are not, and the person is told so, quoting
// them, on the terminal before the next agent starts and in +why.

// typeaheadWait is how long a fresh agent is given to be ready for keys
// (its terminal raw and, for a profile that says, busy or idle at its
// prompt) before what is held is typed into it all the same: a program
// that never leaves cooked mode reads lines, which the line discipline
// takes as typed. An agent that shows a dialog meanwhile gets the
// person's new keys, and the held ones once the dialog is gone.
var typeaheadWait = 30 * time.Second

// tellHeld tells the person, on the terminal between two agents, what
// they typed while none ran: what the next agent will be given, and what
// it will not, quoted. claude clears the screen as it starts, so what is
// not given is said on its status line too (setNotice). What the agent
// that ended was given and never took, given back (readBack), is said
// first: the line being typed, which waits in the next one's input box,
// and lines to be typed into it again.
func (s *Supervisor) tellHeld() {
	back, ta := s.cfg.Terminal.HeldApart()
	name := s.cfg.Profile.Name
	// Before any agent ran, what is held was typed at the resume question
	// (internal/launch): there was no agent for its keys to act on.
	when, goes, why := "while "+name+" restarted", "the new one", "as they acted on the screen of the one that ended"
	if s.starts() == 0 {
		when, goes, why = "at the question", name, "as they are no text"
	}
	var lines []string
	if len(back.Submitted) > 0 {
		lines = append(lines, fmt.Sprintf("superclaude: what you typed that %s had not taken yet goes to the new one once it is ready: %s",
			name, state.Quote(strings.Join(back.Submitted, "⏎")+"⏎", 200)))
	}
	if back.Tail != "" {
		lines = append(lines, fmt.Sprintf("superclaude: the line you were typing when %s restarted waits in the new one's input box: %s",
			name, state.Quote(back.Tail, 200)))
	}
	if !ta.Empty() {
		lines = append(lines, fmt.Sprintf("superclaude: what you typed %s goes to %s once it is ready: %s",
			when, goes, state.Quote(ta.String(), 200)))
	}
	if len(ta.Dropped) > 0 {
		lines = append(lines, fmt.Sprintf("superclaude: keys you typed %s are not passed on, %s: %s",
			when, why, strings.Join(ta.Dropped, ", ")))
		s.setNotice(droppedNotice(ta.Dropped))
	}
	s.say(strings.Join(lines, "\n"))
}

// droppedNotice is the status line's word on keys not passed on.
func droppedNotice(dropped []string) string {
	return "superclaude: keys typed during the restart not passed on: " + strings.Join(dropped, ", ") + " (+why says more)"
}

// giveTypeahead gives ag what was held for it once it is ready for keys
// (readyForKeys), and records in +why what it was given and what not.
// It returns when ag has it, or ends first — then what is held waits for
// the next agent.
//
// Nothing is polled: it looks again when the agent says it does something
// else (noteStatus), when the agent writes to its terminal while it has
// not gone raw yet (a program that reads keys draws its screen as it
// does), and when the wait's next step falls due (keysRecheck). A dialog
// the person must answer waits for the agent's status to change, however
// long nobody is there.
func (s *Supervisor) giveTypeahead(ag *child.Agent) {
	start := time.Now()
	says := s.cfg.Profile.Status != nil
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		change := s.statusLook() // before the look: a look after it is not missed
		out := ag.NextOutput()
		if !ag.HasTypeahead() {
			return
		}
		if testHookTypeaheadLook != nil {
			testHookTypeaheadLook()
		}
		waited := time.Since(start)
		raw := ag.ReadsKeys()
		status := ""
		if says {
			status = s.agentStatus()
		}
		switch keysReadiness(raw, says, status, waited) {
		case keysReady:
			if s.typeIn(ag) {
				return
			}
		case keysDialog:
			ag.PassKeys()
		}
		var due <-chan time.Time
		if next := keysRecheck(says, status, waited); next > 0 {
			if timer == nil {
				timer = time.NewTimer(next - waited)
			} else {
				timer.Reset(next - waited)
			}
			due = timer.C
		}
		if raw {
			out = nil // going raw was all its output could tell
		}
		select {
		case <-ag.Done():
			return
		case <-change:
		case <-out:
		case <-due:
		}
	}
}

// testHookTypeaheadLook, when set by a test, runs at each of
// giveTypeahead's looks.
var testHookTypeaheadLook func()

// typeIn types what was held into ag and records it; false when the
// typing failed (ag ended, say), which leaves it held.
func (s *Supervisor) typeIn(ag *child.Agent) bool {
	ta, err := ag.GiveTypeahead()
	if err != nil {
		s.log.Warn("giving the agent what was typed before it started", "err", err)
		return false
	}
	if ta.Empty() && len(ta.Dropped) == 0 {
		return true // a restarted agent, ready, and nobody typed
	}
	s.log.Info("gave the agent what was typed before it started", "lines", len(ta.Submitted), "dropped", len(ta.Dropped))
	what := "the agent was given what the person typed while no agent could take it"
	if !ta.Empty() {
		what += ": " + state.Quote(ta.String(), 200)
	}
	if len(ta.Dropped) > 0 {
		what += "; not given, as they acted on the screen of the agent that ended: " + strings.Join(ta.Dropped, ", ")
		s.setNotice(droppedNotice(ta.Dropped))
	}
	s.event("typeahead", what, map[string]any{"lines": len(ta.Submitted), "dropped": len(ta.Dropped)})
	return true
}

// Whether an agent can be given what was typed for it.
const (
	keysWait   = iota // not yet
	keysReady         // now
	keysDialog        // it shows a dialog: let new keys through, hold the rest
)

// keysReadiness is giveTypeahead's decision, for an agent whose terminal
// is raw or not, whose profile says what it is doing (says) — status —
// after waited: ready once raw and busy or idle (a profile that does not
// say: raw and a second old); a dialog first lets the person answer it;
// past typeaheadWait (10 s for a profile that does not say), ready
// whatever it is, but a dialog.
func keysReadiness(raw, says bool, status string, waited time.Duration) int {
	if !says {
		if (raw && waited >= time.Second) || waited >= min(typeaheadWait, 10*time.Second) {
			return keysReady
		}
		return keysWait
	}
	switch {
	case status == StatusWaiting:
		return keysDialog
	case raw && (status == StatusBusy || status == StatusIdle), waited >= typeaheadWait:
		return keysReady
	}
	return keysWait
}

// keysRecheck is when, after waited, keysReadiness's answer next changes
// by time alone — the wait since the start at which to look again though
// nothing happened — or 0 when only an event can change it (a dialog, or
// past every step).
func keysRecheck(says bool, status string, waited time.Duration) time.Duration {
	steps := []time.Duration{typeaheadWait}
	switch {
	case !says:
		steps = []time.Duration{time.Second, min(typeaheadWait, 10*time.Second)}
	case status == StatusWaiting:
		return 0
	}
	for _, at := range steps {
		if waited < at {
			return at
		}
	}
	return 0
}

// heldAtEnd says, as the run ends, what text the person typed that no
// agent was given, quoted, for the terminal and +why; "" when none. Keys
// alone (a third Ctrl-C after an exit) are not worth a word then: with no
// agent to follow they would act on nothing.
func (s *Supervisor) heldAtEnd(sess *state.Session) string {
	ta := s.cfg.Terminal.Held()
	if ta.Empty() {
		return ""
	}
	var parts []string
	if !ta.Empty() {
		parts = append(parts, state.Quote(ta.String(), 200))
	}
	parts = append(parts, ta.Dropped...)
	msg := fmt.Sprintf("superclaude: what you typed after %s ended reached no %s, as none was started again: %s.",
		s.cfg.Profile.Name, s.cfg.Profile.Name, strings.Join(parts, ", "))
	s.eventIn(sess, "typeahead-lost", msg, nil)
	return msg
}
