// Package termtext owns making text safe to print on a terminal: text that
// comes from a file, a payload or another program (a model name, a phase,
// a pane id, an event's reason) must not carry a terminal's control
// sequences, which could recolour, move the cursor, retitle the window,
// hide text or, on some terminals, write to the clipboard.
package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean returns s without control characters: the C0 set (ESC among
// them), DEL, the C1 set (a lone 0x9b is a CSI to some terminals), and the
// Unicode bidirectional overrides that make text read other than it is
// stored. Tabs, newlines and other whitespace controls become a space, so
// a value stays on its line and in its column. Bytes that are not UTF-8
// become U+FFFD. Printable text, any script, is kept as it is.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case unicode.IsControl(r) || isBidiControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Lines splits s at its line breaks (LF, or CRLF) and cleans each line as
// Clean does: for text whose lines mean something — errors.Join puts one
// problem a line — where every other control character must still go.
// Empty lines, and a trailing line break, are dropped.
func Lines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = Clean(strings.TrimSuffix(line, "\r"))
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// isClean is the fast path: printable ASCII only.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl reports the explicit directional formatting characters
// (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI) and the marks LRM, RLM and
// ALM.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
