package dashboard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clean makes a value from a file safe to draw: a state file or an event
// line is anyone's of the same user to write, and a control sequence in a
// phase or a pane id must not recolour, move or retitle the dashboard.
// Control characters (C0 with ESC, DEL, C1) and the bidirectional
// overrides go; whitespace controls become a space, so a value stays on
// its line and in its column; bytes that are not UTF-8 become U+FFFD.
func clean(s string) string {
	ok := true
	for i := 0; i < len(s) && ok; i++ {
		ok = s[i] >= 0x20 && s[i] < 0x7f
	}
	if ok {
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
		case unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
			r == 0x200e || r == 0x200f || r == 0x061c:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
