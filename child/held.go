package child

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// Keys typed while no agent can take them are held, never dropped: from
// one agent's end to the next one's start nobody reads them, and a fresh
// agent is not ready for keys the moment it starts — before it puts its
// terminal in raw mode the line discipline echoes them over its screen,
// and a TUI still starting may lose them. So the terminal holds what is
// typed from a detach on; once the next agent is attached, what is typed
// is held behind it, in order, until the agent takes it
// (Agent.GiveTypeahead, when its supervisor sees it ready) or lets new
// keys through to a dialog of its own (Agent.PassKeys). An agent started
// with Spec.HoldKeys has what is typed held so from its start, though
// nothing was held before: keys typed as a restarted claude starts, before
// it is ready for them, reached it and were lost. What is held is
// read as a Typeahead: the text is given, the keys that acted on the gone
// agent's screen are not, and say so.

// maxHeld bounds what is held: a person types a few lines during a
// restart, not more; what comes past it is counted, and said to be lost.
const maxHeld = 64 << 10

// input hands p, one read of the terminal, to the current agent, or holds
// it (see above).
func (t *Terminal) input(p []byte) {
	t.inMu.Lock()
	defer t.inMu.Unlock()
	t.mu.Lock()
	a := t.agent
	if a == nil || ((len(t.held) > 0 || t.unready) && !t.passing) {
		t.holdLocked(p)
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	a.write(a.ptyIO, p, false)
}

// Hold holds p, read from the terminal by someone else before any agent
// runs — the resume question, which reads its keys itself and keeps what
// is typed that is no answer — for the next agent, as if the terminal
// had read it itself. Nothing for no terminal.
func (t *Terminal) Hold(p []byte) {
	if t == nil || len(p) == 0 {
		return
	}
	t.inMu.Lock()
	defer t.inMu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.holdLocked(p)
}

// holdLocked adds p to what is held, up to maxHeld; t.mu is held.
func (t *Terminal) holdLocked(p []byte) {
	if room := maxHeld - len(t.held); room < len(p) {
		t.heldLost += len(p) - max(room, 0)
		p = p[:max(room, 0)]
	}
	t.held = append(t.held, p...)
}

// Held returns what is held now: typed while no agent could take it, and
// not given to one yet. Nil for no terminal.
func (t *Terminal) Held() Typeahead {
	if t == nil {
		return Typeahead{}
	}
	t.mu.Lock()
	raw, lost := append([]byte(nil), t.held...), t.heldLost
	t.mu.Unlock()
	return readHeld(raw, lost)
}

// GiveBack puts g in front of what is held for the next agent: what the
// agent that ended was given and never took (Agent.Typed), to go to the
// next one before what was typed since — the lines submitted, the tail
// left in its input box. A tail that holds a newline is held as a
// bracketed paste, so that it stays one line.
func (t *Terminal) GiveBack(g GivesBack) {
	if t == nil || g.Empty() {
		return
	}
	raw := g.raw()
	t.mu.Lock()
	t.held = append(raw, t.held...)
	t.back += len(raw)
	t.mu.Unlock()
}

// HeldApart is Held in two parts: what was given back (GiveBack) and what
// was typed while no agent could take it.
func (t *Terminal) HeldApart() (back, typed Typeahead) {
	if t == nil {
		return Typeahead{}, Typeahead{}
	}
	t.mu.Lock()
	raw, n, lost := append([]byte(nil), t.held...), t.back, t.heldLost
	t.mu.Unlock()
	return ReadTypeahead(raw[:n]), readHeld(raw[n:], lost)
}

// readHeld reads what was held, lost bytes past maxHeld included.
func readHeld(raw []byte, lost int) Typeahead {
	ta := ReadTypeahead(raw)
	if lost > 0 {
		ta.Dropped = append(ta.Dropped, fmt.Sprintf("%d more bytes, past the %d KiB kept", lost, maxHeld>>10))
	}
	return ta
}

// HasTypeahead reports whether keys typed before a could take them wait
// for it, or it holds what is typed until it is given it (Spec.HoldKeys).
func (a *Agent) HasTypeahead() bool {
	t := a.term
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.agent == a && (len(t.held) > 0 || t.heldLost > 0 || t.unready)
}

// ReadsKeys reports whether the agent has put its terminal in raw mode —
// no line editing, no echo — as a full-screen program does once it reads
// keys itself. Before, typed keys would be echoed by the line discipline
// over the screen it is about to draw.
func (a *Agent) ReadsKeys() bool {
	if a.pty == nil {
		return false
	}
	rc, err := a.pty.SyscallConn()
	if err != nil {
		return false
	}
	raw := false
	rc.Control(func(fd uintptr) {
		// On the master side, the pty's mode is its slave's.
		tio, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
		raw = err == nil && isRaw(tio)
	})
	return raw
}

// PassKeys lets what is typed from now on through to a while what was
// held still waits for it: a shows something of its own to answer (a
// dialog), which the held keys must not answer and the person must be
// able to.
func (a *Agent) PassKeys() {
	t := a.term
	if t == nil {
		return
	}
	t.mu.Lock()
	if t.agent == a {
		t.passing = true
	}
	t.mu.Unlock()
}

// errNotCurrent: the agent is not the terminal's current one.
var errNotCurrent = errors.New("the agent no longer has the terminal")

// GiveTypeahead types into a what was held for it (Typeahead): the lines
// submitted, as one write — a program that tells a paste from typing by
// it takes them as one pasted text — then, after a pause, Enter; then the
// line still being typed, without Enter. Keys typed meanwhile wait
// behind it. From then on what is typed goes straight to a. It returns
// what it gave and what it did not; when the typing fails (a ended), what
// was held is kept for the next agent.
func (a *Agent) GiveTypeahead() (Typeahead, error) {
	t := a.term
	if t == nil {
		return Typeahead{}, errNotCurrent
	}
	t.inMu.Lock()
	defer t.inMu.Unlock()
	t.mu.Lock()
	if t.agent != a {
		t.mu.Unlock()
		return Typeahead{}, errNotCurrent
	}
	raw, lost, back := t.held, t.heldLost, t.back
	t.held, t.heldLost, t.passing, t.back, t.unready = nil, 0, false, 0, false
	t.mu.Unlock()
	ta := readHeld(raw, lost)
	var err error
	if len(ta.Submitted) > 0 {
		err = a.typeLine(strings.Join(ta.Submitted, "\r"), false)
	}
	if err == nil && ta.Tail != "" {
		err = a.write(a.pty, []byte(ta.Tail), false)
	}
	if err != nil {
		t.mu.Lock()
		t.held = append(raw, t.held...)
		t.heldLost += lost
		t.back += back
		t.mu.Unlock()
		return ta, err
	}
	return ta, nil
}
