package supervise

import (
	"bytes"
	"regexp"

	"github.com/superclaude/superclaude/child"
)

// uuidLen is the length of a conversation id in its usual form.
const uuidLen = 36

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// isUUID reports whether s is a conversation id in the usual form.
func isUUID(s string) bool { return len(s) == uuidLen && uuidRE.MatchString(s) }

// rewriteHint returns an Output rewrite that turns an exit hint's command
// — old followed by a space and a conversation id, such as `codex resume
// <id>`, which would run the agent without superclaude — into repl
// followed by the same id. Spaces right after the id are taken out to
// make room for a longer command, so that a hint drawn in a box (Gemini
// CLI's) keeps its right border where it was. Output that ends in what may
// be the beginning of such a command is held back until more comes
// (child.Spec.Rewrite bounds that wait).
//
// The hint is found through the colour changes drawn inside it: Gemini CLI
// 0.61 draws its hint in a gradient, a colour change (an SGR sequence,
// ESC [ … m) every few characters — inside the command and the id alike
// (`gemini ESC[38;5;104m --re ESC[38;5;140m sume b269f27b-36 ESC[…m 36-…`)
// — which a match on the plain text never saw (issue 19: its hint still
// named gemini). The colour changes inside a rewritten hint are written
// after it, so that what follows it is coloured as it was.
func rewriteHint(old, repl string) child.RewriteFunc {
	from := []byte(old + " ")
	to := []byte(repl + " ")
	grow := len(to) - len(from)
	return func(p []byte) ([]byte, int) {
		var out []byte // nil until something is rewritten
		done := 0      // p[:done] is in out
		for at := 0; ; {
			i := bytes.IndexByte(p[at:], from[0])
			if i < 0 {
				break
			}
			i += at
			m := matchHint(p[i:], from, grow)
			switch m.state {
			case hintNone:
				at = i + 1
				continue
			case hintPartial:
				// The rest may be on its way: keep from the command on.
				return flush(out, p, done, i), len(p) - i
			}
			out = append(out, p[done:i]...)
			out = append(out, to...)
			out = append(out, m.id...)
			out = append(out, m.sgr...)
			done, at = i+m.n, i+m.n
		}
		return flush(out, p, done, len(p)), 0
	}
}

// How much of an exit hint a piece of output holds (matchHint).
const (
	hintNone    = iota // not the hint
	hintPartial        // its beginning, at the end of the output
	hintWhole          // the whole hint
)

// hintMatch is what matchHint found: the hint's length in the output (n),
// its id without the colour changes, and the colour changes.
type hintMatch struct {
	state int
	n     int
	id    []byte
	sgr   []byte
}

// matchHint reads the exit hint at the start of q: the command from (old
// and a space), a conversation id, and — taken out when there are at
// least grow of them — grow spaces of padding; colour changes (sgrLen)
// anywhere in it are stepped over and kept.
func matchHint(q, from []byte, grow int) hintMatch {
	var m hintMatch
	j := 0
	// next steps over the colour changes at q[j:] and reports whether a
	// character follows: false with m.state set when the output ends, or
	// an escape that is no colour change comes.
	next := func() bool {
		for j < len(q) && q[j] == 0x1b {
			n := sgrLen(q[j:])
			switch {
			case n == 0:
				m.state = hintNone
				return false
			case n < 0:
				m.state = hintPartial
				return false
			}
			m.sgr = append(m.sgr, q[j:j+n]...)
			j += n
		}
		if j == len(q) {
			m.state = hintPartial
			return false
		}
		return true
	}
	for k := 0; k < len(from); k++ {
		if !next() {
			return m
		}
		if q[j] != from[k] {
			return hintMatch{state: hintNone}
		}
		j++
	}
	for k := 0; k < uuidLen; k++ {
		if !next() {
			return m
		}
		if !uuidChar(k, q[j]) {
			return hintMatch{state: hintNone}
		}
		m.id = append(m.id, q[j])
		j++
	}
	m.state, m.n = hintWhole, j
	idSGR := len(m.sgr)
	for spaces := 0; spaces < grow; spaces++ {
		if !next() {
			if m.state == hintNone {
				// An escape that is not a colour change: no padding to take.
				m.state, m.sgr = hintWhole, m.sgr[:idSGR]
			}
			return m
		}
		if q[j] != ' ' {
			// Not padded enough to make room: leave the rest as it is.
			m.sgr = m.sgr[:idSGR]
			return m
		}
		j++
	}
	m.n = j
	return m
}

// uuidChar reports whether c may be character k of a conversation id in
// its usual form (isUUID).
func uuidChar(k int, c byte) bool {
	if k == 8 || k == 13 || k == 18 || k == 23 {
		return c == '-'
	}
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// sgrLen is the length of the colour change (SGR: ESC [ digits and
// semicolons m) at the start of p; -1 when p ends before it does, 0 when
// p does not start with one.
func sgrLen(p []byte) int {
	if len(p) < 2 {
		return -1
	}
	if p[1] != '[' {
		return 0
	}
	for i := 2; i < len(p); i++ {
		switch c := p[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		default:
			return 0
		}
	}
	return -1
}

// flush returns out (nil: nothing rewritten yet) with p[done:upto] added.
func flush(out, p []byte, done, upto int) []byte {
	if out == nil {
		return p[:upto]
	}
	return append(out, p[done:upto]...)
}
