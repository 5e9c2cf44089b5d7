package rawjson

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote returns the string the JSON string literal raw holds, as
// json.Unmarshal reads it: escapes decoded, a lone surrogate and a byte
// that is not UTF-8 each read as U+FFFD. ok is false when raw is not a
// string literal. (A Bash command in a hook's input nearly always holds a
// quote or a newline: PlainString would send it to encoding/json.)
func Unquote(raw []byte) (string, bool) {
	if s, ok := PlainString(raw); ok {
		return s, true
	}
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	b := make([]byte, 0, len(s))
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch s[r] {
			case '"', '\\', '/':
				b = append(b, s[r])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := u4(s[r-1:])
				if rr < 0 {
					return "", false
				}
				r += 4 // at the escape's last digit
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, u4(s[r+1:])); dec != unicode.ReplacementChar {
						r += 7 // past the second escape
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
			default:
				return "", false
			}
			r++
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), true
}

// u4 reads the four hexadecimal digits of a \uXXXX escape at the start of
// s; -1 when there is none.
func u4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
