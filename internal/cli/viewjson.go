package cli

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends v as json.Marshal writes it, byte for byte, without
// its reflection: +status --json writes 10,000 of these, and json.Marshal
// of each was a tenth of the command (issue 22). ok is false, with
// nothing appended, for a view json.Marshal would refuse (a usage or a
// cost that is not a finite number). TestViewJSONIsJSONMarshals and
// FuzzViewJSON hold it to json.Marshal.
func (v *SessionView) AppendJSON(b []byte) (_ []byte, ok bool) {
	if v.ContextUsage != nil && !finite(*v.ContextUsage) || !finite(v.CostUSD) {
		return b, false
	}
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"dir":`...)
	b = appendString(b, v.Dir)
	b = optString(b, `,"pane":`, v.Pane)
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(v.PID), 10)
	b = append(b, `,"ownerAlive":`...)
	b = strconv.AppendBool(b, v.OwnerAlive)
	if v.NoSupervisor {
		b = append(b, `,"noSupervisor":true`...)
	}
	b = append(b, `,"state":`...)
	b = appendString(b, v.State)
	b = optString(b, `,"skill":`, v.Skill)
	b = optString(b, `,"phase":`, v.Phase)
	b = append(b, `,"lifecycle":`...)
	b = appendString(b, string(v.Lifecycle))
	b = append(b, `,"overflowed":`...)
	b = strconv.AppendBool(b, v.Overflowed)
	if v.FreshAfterOverflow {
		b = append(b, `,"freshAfterOverflow":true`...)
	}
	b = optString(b, `,"limitContinue":`, v.LimitContinue)
	b = append(b, `,"killRequested":`...)
	b = strconv.AppendBool(b, v.KillRequested)
	if v.ContextUsage != nil {
		b = append(b, `,"contextUsage":`...)
		b = appendFloat(b, *v.ContextUsage)
	}
	b = optString(b, `,"sessionId":`, v.SessionID)
	b = optString(b, `,"lastHeartbeat":`, v.LastHeartbeat)
	b = optString(b, `,"lastActivity":`, v.LastActivity)
	b = append(b, `,"restarts":`...)
	b = strconv.AppendInt(b, int64(v.Restarts), 10)
	b = optString(b, `,"agent":`, v.Agent)
	b = optString(b, `,"profile":`, v.Profile)
	b = optString(b, `,"conversationUnknown":`, v.ConversationUnknown)
	b = append(b, `,"needsInput":`...)
	b = strconv.AppendBool(b, v.NeedsInput)
	if v.CostUSD != 0 {
		b = append(b, `,"costUSD":`...)
		b = appendFloat(b, v.CostUSD)
	}
	b = optString(b, `,"limit":`, v.Limit)
	b = optString(b, `,"limitedUntil":`, v.LimitedUntil)
	b = optString(b, `,"halted":`, v.Halted)
	b = optString(b, `,"lastExit":`, v.LastExit)
	b = optString(b, `,"host":`, v.Host)
	b = optString(b, `,"hostError":`, v.HostError)
	b = optString(b, `,"lastGood":`, v.LastGood)
	return append(b, '}'), true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// optString appends key and s unless s is empty (omitempty).
func optString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

// appendFloat appends f as encoding/json writes a float64.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 is written e-9
		b = b[:n-1]
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json writes it:
// with HTML's <, > and & escaped, a byte that is not UTF-8 written as
// U+FFFD, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
