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
	ok = Members(data, func(key, value []byte) bool {
		fields[string(key)] = value
		return true
	})
	if !ok {
		return nil, false
	}
	return fields, true
}

// Members calls visit with each member of the JSON object data, in order:
// its key, unescaped — valid only during the call — and its raw value,
// which shares data's array. It returns false when data is not one valid
// JSON object, or visit returned false; visit may have been called for
// some members by then. data is checked as it is read, in one pass, as
// strictly as json.Valid checks it (FuzzObject).
func Members(data []byte, visit func(key, value []byte) bool) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return false
		}
		end := stringEnd(data, i)
		if end < 0 {
			return false
		}
		key := data[i+1 : end-1]
		if !plain(key) {
			k, ok := Unquote(data[i:end])
			if !ok {
				return false
			}
			key = []byte(k)
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		vend := valueEnd(data, i, 1)
		if vend < 0 || !visit(key, data[i:vend:vend]) {
			return false
		}
		var done bool
		if i, done = next(data, vend, '}'); i < 0 || done {
			return i >= 0 && skipSpace(data, i) == len(data)
		}
	}
}

// PlainString returns the string raw holds when it is a string literal
// without escapes (what superclaude writes, and claude nearly always);
// ok is false for anything else, which json.Unmarshal then reads or
// refuses.
func PlainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || !plain(raw[1:len(raw)-1]) {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

// plain reports whether body, a string literal's bytes between its
// quotes, is the string itself: no escape, no control character, and
// UTF-8 (json.Unmarshal reads a byte that is not as U+FFFD).
func plain(body []byte) bool {
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(body)
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
