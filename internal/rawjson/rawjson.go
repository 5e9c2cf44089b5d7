// Package rawjson reads JSON objects and their plainest values without
// encoding/json's reflection. json.Unmarshal into a struct builds, the
// first time it meets each type, a description of its fields, which costs
// a process that decodes one small document far more than the document:
// 130 µs of a status-line tick's 3 ms, ten times what the decoding itself
// takes (issue 22); and a +status of 10,000 sessions spent most of its
// decoding in the decoder's setup for each value. The functions here read
// what superclaude writes and claude sends in the common case, and say
// when they cannot (an escape in a string, a value of another type), so
// that the caller falls back to encoding/json, which then decides as it
// always has.
package rawjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Object splits a JSON object into its keys and raw values, as
// json.Decoder does into a map[string]json.RawMessage. The values share
// data's array. ok is false when data is not valid JSON or not an object;
// the caller then decodes it the slow way, which says what is wrong. Of a
// repeated key the last value counts, as with json.Decoder.
func Object(data []byte) (fields map[string]json.RawMessage, ok bool) {
	fields = make(map[string]json.RawMessage, 8)
	ok = Members(data, func(key string, value []byte) bool {
		fields[key] = value
		return true
	})
	if !ok {
		return nil, false
	}
	return fields, true
}

// Members calls visit with each member of the JSON object data, in order:
// its key, unescaped, and its raw value, which shares data's array. It
// returns false when data is not one valid JSON object, or visit returned
// false; visit may have been called for some members by then.
func Members(data []byte, visit func(key string, value []byte) bool) bool {
	if !json.Valid(data) {
		return false
	}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return true
	}
	// From here on data is a valid object, so every step below finds what
	// it looks for; the bounds checks only keep a mistake here from
	// becoming a crash.
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		end := stringEnd(data, i)
		if end < 0 {
			return false
		}
		key, plain := PlainString(data[i:end])
		if !plain && json.Unmarshal(data[i:end], &key) != nil {
			return false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		vend := valueEnd(data, i)
		if vend < 0 || !visit(key, data[i:vend:vend]) {
			return false
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// PlainString returns the string raw holds when it is a string literal
// without escapes (what superclaude writes, and claude nearly always);
// ok is false for anything else, which json.Unmarshal then reads or
// refuses.
func PlainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false // json.Unmarshal replaces bad bytes with U+FFFD
	}
	return string(body), true
}

// Number reads a JSON number; anything else is an error.
func Number(raw []byte) (float64, error) {
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		// A valid JSON number is valid for ParseFloat, to the same value.
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return f, nil
		}
	}
	var f float64
	err := json.Unmarshal(raw, &f)
	return f, err
}

// IsNull reports whether raw, one value of a valid document, is null.
func IsNull(raw []byte) bool { return string(raw) == "null" }

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string literal starting at i, or
// -1.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value starting at i, or -1.
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end := stringEnd(data, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default: // a number, true, false or null
		j := i
		for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' &&
			data[j] != ' ' && data[j] != '\t' && data[j] != '\n' && data[j] != '\r' {
			j++
		}
		return j
	}
}
