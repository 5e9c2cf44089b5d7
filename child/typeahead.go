package child

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Typeahead is what a person typed while no agent could take it — between
// one agent's end and the next one's start, or while the next one was not
// yet reading keys — read for the next agent: what is safe to type into a
// fresh program, and what is not.
//
// Typed text is safe: it goes to the next agent as the person typed it,
// lines they ended with Enter submitted, the line they were still typing
// left in the input box. Backspace, Ctrl-U and Ctrl-W are applied to it,
// as the person saw them edit it.
//
// The rest acted on a screen that is gone, and given to a fresh program
// it would do something else: Esc interrupts the new agent's first turn,
// Ctrl-C twice ends it, an arrow walks its history, "1" and Enter — the
// answer to a permission dialog of the agent that ended — would be sent
// to the model as a prompt. Those keys are not given; they are named in
// Dropped, for the person to be told. What the terminal itself sent (its
// answers to the old agent's queries, focus and mouse reports) is no one's
// words and is left out silently.
type Typeahead struct {
	// Submitted are the lines the person ended with Enter, in order.
	Submitted []string
	// Tail is the text typed after the last Enter.
	Tail string
	// Dropped names, in order, each key or line not given: "Esc", "↑",
	// "Ctrl-C", `"1" and Enter`.
	Dropped []string
}

// Empty reports whether there is nothing to give.
func (t Typeahead) Empty() bool { return len(t.Submitted) == 0 && t.Tail == "" }

// String renders what is given, for a message to the person: the lines,
// each ending in ⏎ when submitted.
func (t Typeahead) String() string {
	var b strings.Builder
	for _, l := range t.Submitted {
		b.WriteString(l + "⏎")
	}
	b.WriteString(t.Tail)
	return b.String()
}

// ReadTypeahead reads raw terminal input into a Typeahead.
func ReadTypeahead(in []byte) Typeahead {
	var t Typeahead
	var line []rune
	enter := func() {
		text := string(line)
		line = line[:0]
		if dialogAnswer(text) {
			if strings.TrimSpace(text) == "" {
				t.Dropped = append(t.Dropped, "Enter")
			} else {
				t.Dropped = append(t.Dropped, strconv.Quote(text)+" and Enter")
			}
			return
		}
		t.Submitted = append(t.Submitted, text)
	}
	scanKeys(in, func(k keyEvent) {
		switch k.kind {
		case keyEnter, keyLineFeed:
			enter()
		case keyText:
			line = append(line, k.r)
		case keyPaste:
			line = append(line, []rune(k.text)...)
		case keyBackspace:
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		case keyKillLine:
			line = line[:0]
		case keyKillWord:
			line = line[:wordStart(line, len(line))]
		case keyNamed:
			t.Dropped = append(t.Dropped, k.name)
		}
	})
	t.Tail = string(line)
	return t
}

// dialogAnswer reports whether a line ended with Enter is an empty line
// or one character: a dialog's answer (Enter, "1", "y"), not a prompt.
func dialogAnswer(text string) bool {
	return utf8.RuneCountInString(strings.TrimSpace(text)) <= 1
}

// wordStart is where the word before position i of line begins, spaces
// after it included: what Ctrl-W deletes.
func wordStart(line []rune, i int) int {
	for i > 0 && line[i-1] == ' ' {
		i--
	}
	for i > 0 && line[i-1] != ' ' {
		i--
	}
	return i
}

// keyKind is what a key read from raw terminal input is.
type keyKind uint8

const (
	keyText      keyKind = iota // a character: r (a Tab too)
	keyPaste                    // a bracketed paste: text, its newlines "\n"
	keyEnter                    // CR, or CR LF
	keyLineFeed                 // a lone LF: Ctrl-J
	keyBackspace                // DEL or BS
	keyKillLine                 // Ctrl-U
	keyKillWord                 // Ctrl-W
	keyNamed                    // a key that edits no text: name
	keyReport                   // a sequence the terminal sent on its own
)

// keyEvent is one key: its kind, and the bytes in[start:end] it was read
// from (chunk is for readTyped: the write its last byte came in).
type keyEvent struct {
	kind       keyKind
	r          rune
	text, name string
	start, end int
	chunk      int
}

// scanKeys reads raw terminal input key by key, calling fn for each.
func scanKeys(in []byte, fn func(keyEvent)) {
	for i := 0; i < len(in); {
		k := keyEvent{start: i}
		c := in[i]
		switch {
		case c == '\r':
			k.kind, i = keyEnter, i+1
			if i < len(in) && in[i] == '\n' {
				i++
			}
		case c == '\n':
			k.kind, i = keyLineFeed, i+1
		case c == '\t':
			k.kind, k.r, i = keyText, '\t', i+1
		case c == 0x7f || c == 0x08:
			k.kind, i = keyBackspace, i+1
		case c == 0x15:
			k.kind, i = keyKillLine, i+1
		case c == 0x17:
			k.kind, i = keyKillWord, i+1
		case c == 0x1b:
			n, name, paste := readEscape(in[i:])
			switch {
			case paste != nil:
				// A bracketed paste: text, its newlines part of it.
				k.kind, k.text = keyPaste, strings.ReplaceAll(strings.ReplaceAll(string(paste), "\r\n", "\n"), "\r", "\n")
			case name != "":
				k.kind, k.name = keyNamed, name
			default:
				k.kind = keyReport
			}
			i += n
		case c < 0x20:
			k.kind, k.name, i = keyNamed, "Ctrl-"+string(rune('@'+c)), i+1
		default:
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n <= 1 {
				// Not UTF-8: kept as it was typed, byte for byte.
				r, n = rune(c), 1
			}
			k.kind, k.r, i = keyText, r, i+n
		}
		k.end = i
		fn(k)
	}
}

// keyNames are the keys CSI and SS3 sequences report, by their final
// byte, and those of the form CSI n ~, by n.
var (
	keyNames   = map[byte]string{'A': "↑", 'B': "↓", 'C': "→", 'D': "←", 'H': "Home", 'F': "End", 'Z': "Shift-Tab", 'E': "Begin"}
	fkeyNames  = map[byte]string{'P': "F1", 'Q': "F2", 'R': "F3", 'S': "F4"}
	tildeNames = map[string]string{"1": "Home", "2": "Insert", "3": "Delete", "4": "End", "5": "Page Up", "6": "Page Down", "7": "Home", "8": "End",
		"15": "F5", "17": "F6", "18": "F7", "19": "F8", "20": "F9", "21": "F10", "23": "F11", "24": "F12"}
)

// readEscape reads the escape sequence at the start of b (b[0] is ESC) and
// returns its length and, for a key a person pressed, its name; for a
// bracketed paste, the pasted bytes. A sequence the terminal sends on its
// own — a report, an answer to a query — has no name.
func readEscape(b []byte) (n int, name string, paste []byte) {
	if len(b) == 1 {
		return 1, "Esc", nil
	}
	switch b[1] {
	case '[':
		// CSI: parameters and intermediates (0x20–0x3f), then a final
		// byte (0x40–0x7e).
		j := 2
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x3f {
			j++
		}
		if j == len(b) {
			return len(b), "", nil // cut short: not a key anyone can name
		}
		params, final := string(b[2:j]), b[j]
		n = j + 1
		if final == '~' && params == "200" {
			end := strings.Index(string(b[n:]), "\x1b[201~")
			if end < 0 {
				return len(b), "", b[n:]
			}
			return n + end + len("\x1b[201~"), "", b[n : n+end]
		}
		base, mods, _ := strings.Cut(params, ";")
		switch {
		case final == '~' && tildeNames[base] != "":
			return n, withModifiers(tildeNames[base], mods), nil
		case keyNames[final] != "" && (params == "" || base == "1"):
			return n, withModifiers(keyNames[final], mods), nil
		case fkeyNames[final] != "" && base == "1":
			return n, withModifiers(fkeyNames[final], mods), nil
		}
		// Focus (I, O), mouse (M, m, <…), cursor and device reports (R, c,
		// n, t …): the terminal's, not the person's.
		return n, "", nil
	case 'O':
		if len(b) < 3 {
			return len(b), "", nil
		}
		if k := keyNames[b[2]]; k != "" {
			return 3, k, nil
		}
		if k := fkeyNames[b[2]]; k != "" {
			return 3, k, nil
		}
		return 1, "Esc", nil // Esc, then "O…" typed
	case ']', 'P', '_', '^':
		// OSC, DCS, APC, PM: strings the terminal sends in answer to a
		// query (its colours, its name), up to BEL or ST.
		for j := 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1, "", nil
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2, "", nil
			}
		}
		return len(b), "", nil
	}
	// ESC and a character is Esc, then that character: a terminal sends
	// Alt-x so too, but a person pressing Esc and typing on is what the
	// bytes held together cannot tell from it, and that text is theirs.
	return 1, "Esc", nil
}

// withModifiers names a key with the modifiers of a CSI sequence's second
// parameter (xterm's 1 + Shift 1, Alt 2, Ctrl 4).
func withModifiers(key, mods string) string {
	m, err := strconv.Atoi(mods)
	if err != nil || m < 2 {
		return key
	}
	m--
	var b strings.Builder
	for _, mod := range []struct {
		bit  int
		name string
	}{{4, "Ctrl-"}, {2, "Alt-"}, {1, "Shift-"}} {
		if m&mod.bit != 0 {
			b.WriteString(mod.name)
		}
	}
	return b.String() + key
}
