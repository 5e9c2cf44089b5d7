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
// not given is said on its status line too (setNotice).
func (s *Supervisor) tellHeld() {
	ta := s.cfg.Terminal.Held()
	var lines []string
	if !ta.Empty() {
		lines = append(lines, fmt.Sprintf("superclaude: what you typed while %s restarted goes to the new one once it is ready: %s",
			s.cfg.Profile.Name, state.Quote(ta.String(), 200)))
	}
	if len(ta.Dropped) > 0 {
		lines = append(lines, fmt.Sprintf("superclaude: keys you typed while %s restarted are not passed on, as they acted on the screen of the one that ended: %s",
			s.cfg.Profile.Name, strings.Join(ta.Dropped, ", ")))
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
func (s *Supervisor) giveTypeahead(ag *child.Agent) {
	start := time.Now()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ag.Done():
			return
		case <-tick.C:
		}
		if !ag.HasTypeahead() {
			return
		}
		switch s.readyForKeys(ag, time.Since(start)) {
		case keysWait:
			continue
		case keysDialog:
			ag.PassKeys()
			continue
		}
		ta, err := ag.GiveTypeahead()
		if err != nil {
			s.log.Warn("giving the agent what was typed before it started", "err", err)
			continue
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
		return
	}
}

// Whether an agent can be given what was typed for it.
const (
	keysWait   = iota // not yet
	keysReady         // now
	keysDialog        // it shows a dialog: let new keys through, hold the rest
)

// readyForKeys says whether ag can be given what was held for it, after
// waited (keysReadiness).
func (s *Supervisor) readyForKeys(ag *child.Agent, waited time.Duration) int {
	status := ""
	if s.cfg.Profile.Status != nil {
		status = s.agentStatus()
	}
	return keysReadiness(ag.ReadsKeys(), s.cfg.Profile.Status != nil, status, waited)
}

// keysReadiness is readyForKeys's decision, for an agent whose terminal
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
