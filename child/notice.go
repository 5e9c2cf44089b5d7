package child

import "unicode/utf8"

// Notice writes seq — a terminal notification, OSC 9 or a bell — to our
// terminal between two pieces of the agent's output, never inside one:
// not in the middle of an escape sequence the agent is writing (its
// sequence would break, and with it the agent's screen), nor in the middle
// of a character. When the agent's output is at such a boundary now, seq
// goes at once; otherwise it goes right after the next piece of output
// that ends at one. It reports false for an agent without a terminal.
func (a *Agent) Notice(seq []byte) bool {
	if a.pty == nil || len(seq) == 0 {
		return false
	}
	a.modesMu.Lock()
	defer a.modesMu.Unlock()
	if a.atBoundary() {
		a.term.Out().Write(seq)
		return true
	}
	a.notice = append(a.notice, seq...)
	return true
}

// atBoundary reports whether the output written so far ends between two
// characters and outside any escape sequence. a.modesMu is held.
func (a *Agent) atBoundary() bool {
	return a.modes.state == ground && a.tailN == 0
}

// noteTail keeps the last bytes of p when they may be the start of a
// character that is not complete yet. a.modesMu is held.
func (a *Agent) noteTail(p []byte) {
	a.tailN = 0
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				a.tailN = copy(a.tail[:], p[i:])
			}
			return
		}
	}
}

// Notice writes seq — a terminal notification — to the terminal: through
// the current agent, between two pieces of its output (Agent.Notice), or
// at once when no agent runs. It reports false when it cannot.
func (t *Terminal) Notice(seq []byte) bool {
	if t == nil {
		return false
	}
	if a := t.current(); a != nil {
		return a.Notice(seq)
	}
	_, err := t.Out().Write(seq)
	return err == nil
}
