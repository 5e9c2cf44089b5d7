package state

import "encoding/json"

// splitObject splits a JSON object into its keys and raw values, as
// json.Decoder does into a map[string]json.RawMessage, but without
// reflection: a +status of 10,000 sessions spent most of its decoding
// there. The values share data's array. ok is false when data is not
// valid JSON or not an object; the caller then decodes it the slow way,
// which says what is wrong. Of a repeated key the last value counts, as
// with json.Decoder.
func splitObject(data []byte) (fields map[string]json.RawMessage, ok bool) {
	if !json.Valid(data) {
		return nil, false
	}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	fields = make(map[string]json.RawMessage, 8)
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return fields, true
	}
	// From here on data is a valid object, so every step below finds what
	// it looks for; the bounds checks only keep a mistake here from
	// becoming a crash.
	for i < len(data) {
		if data[i] != '"' {
			return nil, false
		}
		end := stringEnd(data, i)
		if end < 0 {
			return nil, false
		}
		key, plain := plainString(data[i:end])
		if !plain && json.Unmarshal(data[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		vend := valueEnd(data, i)
		if vend < 0 {
			return nil, false
		}
		fields[key] = data[i:vend:vend]
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return fields, true
		default:
			return nil, false
		}
	}
	return nil, false
}

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
