package child

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// modeTracker follows the terminal modes an agent switches on in its
// output, so that what it leaves on when it dies can be switched off
// (issue 9, item 4): an agent that is killed, crashes or is restarted never
// gets to undo its alternate screen, hidden cursor, mouse reporting,
// bracketed paste or keyboard protocol, and superclaude's own messages, the
// next agent and the shell after us would inherit them.
//
// It resets only what it saw switched on, never blindly: a blind
// "leave the alternate screen" also restores a stale saved cursor, and a
// blind kitty-keyboard pop takes an entry that is not the agent's.
//
// Sequences may be split across writes; the tracker keeps the unfinished
// one (bounded) until the next write. It sits in the output copy, so the
// common case — text with no escape — is one bytes.IndexByte per write.
type modeTracker struct {
	// dec holds the DEC private modes (CSI ? n h / CSI ? n l) the agent
	// set to other than their default, by number: true means set.
	dec map[int]bool
	// kittyMain and kittyAlt count kitty keyboard-protocol pushes not yet
	// popped on each screen (the protocol keeps one stack per screen).
	kittyMain, kittyAlt int
	// modifyOtherKeys is xterm's CSI > 4 ; n m with n > 0.
	modifyOtherKeys bool
	// keypad is DECKPAM (ESC =).
	keypad bool
	// sgr is true when the last SGR (CSI … m) left an attribute on.
	sgr bool
	// margins is true when a scroll region (DECSTBM) is set.
	margins bool
	// cursorStyle is true when DECSCUSR (CSI n SP q) set a shape.
	cursorStyle bool
	// g0 and g1 are true when the agent designated another character set
	// than ASCII (ESC ( 0, the line-drawing set) as G0 or G1; charset is
	// 0 or 1 while an ESC ( or ESC ) waits for its final byte.
	g0, g1  bool
	charset int
	// ansi holds the ANSI modes (CSI n h / CSI n l) the agent set:
	// insert mode (4) and newline mode (20).
	ansi map[int]bool

	state  parseState
	seq    []byte // the CSI being read: parameters and intermediates
	strEsc bool   // in a string, the last byte was ESC (ST is ESC \)
}

type parseState uint8

const (
	ground parseState = iota
	escape
	csi
	str       // OSC, DCS, APC, PM, SOS: skipped to BEL or ST
	csiJunk   // a CSI too long to be a mode: skipped to its final byte
	designate // ESC ( or ESC ): the next byte names a character set
)

// maxSeq bounds the CSI the tracker keeps; mode sequences are a few bytes.
const maxSeq = 64

// decDefaults are the DEC private modes the tracker restores, with their
// state when a terminal starts: mode 25 (cursor visible) and 7 (autowrap)
// are on, the others off.
var decDefaults = map[int]bool{
	1:    false, // DECCKM application cursor keys
	5:    false, // DECSCNM reverse video: the whole screen inverted
	6:    false, // DECOM origin mode: the cursor bound to the scroll region
	7:    true,  // autowrap
	9:    false, // X10 mouse
	25:   true,  // cursor visible
	47:   false, // alternate screen
	66:   false, // DECNKM application keypad
	69:   false, // DECLRMM left-right margins
	1000: false, // mouse: button press and release
	1001: false, // mouse: highlight tracking
	1002: false, // mouse: button motion
	1003: false, // mouse: any motion
	1004: false, // focus in/out reports
	1005: false, // mouse: UTF-8 coordinates
	1006: false, // mouse: SGR coordinates
	1007: false, // alternate scroll
	1015: false, // mouse: urxvt coordinates
	1016: false, // mouse: SGR pixel coordinates
	1047: false, // alternate screen
	1049: false, // alternate screen, cursor saved
	2004: false, // bracketed paste
	2026: false, // synchronized output: a terminal stops drawing until it ends
	2031: false, // colour-scheme change reports
}

// altScreens are the modes that switch to the alternate screen.
var altScreens = []int{1049, 1047, 47}

func newModeTracker() *modeTracker { return &modeTracker{dec: map[int]bool{}} }

// Feed reads what the agent wrote.
func (m *modeTracker) Feed(p []byte) {
	for len(p) > 0 {
		switch m.state {
		case ground:
			i := bytes.IndexByte(p, 0x1b)
			if i < 0 {
				return
			}
			p = p[i+1:]
			m.state = escape
		case escape:
			c := p[0]
			p = p[1:]
			m.state = ground
			switch c {
			case '[':
				m.state, m.seq = csi, m.seq[:0]
			case ']', 'P', '_', '^', 'X':
				m.state, m.strEsc = str, false
			case '=':
				m.keypad = true
			case '>':
				m.keypad = false
			case '(', ')':
				m.state, m.charset = designate, int(c-'(')
			case 'c': // RIS: the terminal is reset whole
				*m = modeTracker{dec: map[int]bool{}, seq: m.seq[:0]}
			case 0x1b:
				m.state = escape
			}
		case csi:
			c := p[0]
			p = p[1:]
			switch {
			case c >= 0x40 && c <= 0x7e:
				m.csi(string(m.seq), c)
				m.state = ground
			case c >= 0x20 && c <= 0x3f:
				if len(m.seq) >= maxSeq {
					m.state = csiJunk
				} else {
					m.seq = append(m.seq, c)
				}
			case c == 0x1b:
				m.state = escape
			case c == 0x18 || c == 0x1a: // CAN, SUB abort a sequence
				m.state = ground
			}
		case designate:
			c := p[0]
			p = p[1:]
			m.state = ground
			if c == 0x1b {
				m.state = escape
				continue
			}
			if m.charset == 0 {
				m.g0 = c != 'B'
			} else {
				m.g1 = c != 'B'
			}
		case csiJunk:
			c := p[0]
			p = p[1:]
			if c >= 0x40 && c <= 0x7e {
				m.state = ground
			}
		case str:
			for len(p) > 0 {
				c := p[0]
				p = p[1:]
				if c == 0x07 || (m.strEsc && c == '\\') {
					m.state = ground
					break
				}
				m.strEsc = c == 0x1b
			}
		}
	}
}

// csi applies one control sequence: its parameter and intermediate bytes,
// and its final byte.
func (m *modeTracker) csi(params string, final byte) {
	switch {
	case (final == 'h' || final == 'l') && (params == "4" || params == "20"):
		if m.ansi == nil {
			m.ansi = map[int]bool{}
		}
		n, _ := strconv.Atoi(params)
		if final == 'h' {
			m.ansi[n] = true
		} else {
			delete(m.ansi, n)
		}
	case (final == 'h' || final == 'l') && strings.HasPrefix(params, "?"):
		on := final == 'h'
		for _, f := range strings.Split(params[1:], ";") {
			n, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			def, known := decDefaults[n]
			if !known {
				continue
			}
			if on == def {
				delete(m.dec, n)
			} else {
				m.dec[n] = on
			}
		}
	case final == 'u' && strings.HasPrefix(params, ">"):
		*m.kitty()++
	case final == 'u' && strings.HasPrefix(params, "<"):
		n := 1
		if v, err := strconv.Atoi(params[1:]); err == nil && v > 0 {
			n = v
		}
		k := m.kitty()
		*k = max(0, *k-n)
	case final == 'm' && strings.HasPrefix(params, ">"):
		// CSI > 4 ; n m: modifyOtherKeys level n; CSI > 4 m resets it.
		f := strings.Split(params[1:], ";")
		if f[0] == "4" {
			m.modifyOtherKeys = len(f) > 1 && f[1] != "" && f[1] != "0"
		}
	case final == 'm' && !strings.ContainsAny(params, "<=>?"):
		// SGR: on unless it ends in a plain reset.
		f := strings.Split(params, ";")
		last := f[len(f)-1]
		m.sgr = !(last == "" || last == "0")
	case final == 'r' && params != "" && !strings.ContainsAny(params, "<=>?"):
		m.margins = true
	case final == 'r' && params == "":
		m.margins = false
	case final == 'q' && strings.HasSuffix(params, " "):
		n := strings.TrimSuffix(params, " ")
		m.cursorStyle = n != "" && n != "0"
	}
}

func (m *modeTracker) alt() bool {
	for _, n := range altScreens {
		if m.dec[n] {
			return true
		}
	}
	return false
}

// kitty is the keyboard-protocol stack count of the current screen.
func (m *modeTracker) kitty() *int {
	if m.alt() {
		return &m.kittyAlt
	}
	return &m.kittyMain
}

// Reset returns the sequence that switches off what the agent left on, in
// an order that works: keyboard pops on the screen they were pushed on,
// then the alternate screen left, then the main screen's pops and the
// rest. It is empty when the agent left nothing on.
func (m *modeTracker) Reset() []byte {
	var b bytes.Buffer
	csi := func(s string) { b.WriteString("\x1b[" + s) }
	if m.state == str {
		// An unfinished OSC or DCS would swallow what follows.
		b.WriteString("\x1b\\")
	}
	if m.dec[2026] {
		csi("?2026l")
	}
	if m.kittyAlt > 0 {
		csi("<" + strconv.Itoa(m.kittyAlt) + "u")
	}
	for _, n := range altScreens {
		if m.dec[n] {
			csi("?" + strconv.Itoa(n) + "l")
		}
	}
	if m.kittyMain > 0 {
		csi("<" + strconv.Itoa(m.kittyMain) + "u")
	}
	if m.modifyOtherKeys {
		csi(">4m")
	}
	if m.keypad {
		b.WriteString("\x1b>")
	}
	if m.margins {
		// DECSTBM homes the cursor: keep it where it is.
		b.WriteString("\x1b7\x1b[r\x1b8")
	}
	if m.sgr {
		csi("m")
	}
	if m.cursorStyle {
		csi("0 q")
	}
	for _, n := range []int{4, 20} {
		if m.ansi[n] {
			csi(strconv.Itoa(n) + "l")
		}
	}
	if m.g0 {
		b.WriteString("\x1b(B")
	}
	if m.g1 {
		// G1 back to ASCII, and G0 shifted in again (SI) should the
		// agent have shifted to G1 (SO).
		b.WriteString("\x1b)B\x0f")
	}
	var rest []int
	for n := range m.dec {
		if n != 2026 && !isAlt(n) {
			rest = append(rest, n)
		}
	}
	// Highest first: the mouse encodings (1005, 1006 …) after nothing
	// that depends on them; the order is otherwise free, and fixed for
	// the tests.
	slices.SortFunc(rest, func(a, b int) int { return b - a })
	for _, n := range rest {
		if decDefaults[n] {
			csi("?" + strconv.Itoa(n) + "h")
		} else {
			csi("?" + strconv.Itoa(n) + "l")
		}
	}
	return b.Bytes()
}

func isAlt(n int) bool { return n == 1049 || n == 1047 || n == 47 }
