package rawjson

// maxDepth is how deeply encoding/json lets arrays and objects nest.
const maxDepth = 10000

// stringEnd returns the index after the string literal starting at i, or
// -1 when there is none: an unfinished one, a control character in it, or
// an escape JSON does not have.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			j++
			if j >= len(data) {
				return -1
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(data) || !isHex(data[j+1]) || !isHex(data[j+2]) || !isHex(data[j+3]) || !isHex(data[j+4]) {
					return -1
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// valueEnd returns the index after the JSON value starting at i, nested
// depth deep, or -1 when there is no valid value there.
func valueEnd(data []byte, i, depth int) int {
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '"':
		return stringEnd(data, i)
	case c == '{':
		return objectEnd(data, i, depth+1)
	case c == '[':
		return arrayEnd(data, i, depth+1)
	case c == 't':
		return literalEnd(data, i, "true")
	case c == 'f':
		return literalEnd(data, i, "false")
	case c == 'n':
		return literalEnd(data, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return numberEnd(data, i)
	}
	return -1
}

func literalEnd(data []byte, i int, word string) int {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// numberEnd reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func numberEnd(data []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
		return j
	}
	if data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		return -1
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func objectEnd(data []byte, i, depth int) int {
	if depth > maxDepth {
		return -1
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return -1
		}
		if i = stringEnd(data, i); i < 0 {
			return -1
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
			return -1
		}
		if i = valueEnd(data, skipSpace(data, i+1), depth); i < 0 {
			return -1
		}
		var done bool
		if i, done = next(data, i, '}'); i < 0 || done {
			return i
		}
	}
}

func arrayEnd(data []byte, i, depth int) int {
	if depth > maxDepth {
		return -1
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1
	}
	for {
		if i = valueEnd(data, i, depth); i < 0 {
			return -1
		}
		var done bool
		if i, done = next(data, i, ']'); i < 0 || done {
			return i
		}
	}
}

// next reads what follows an element of an object or array closed by
// end: a comma, and the index of the next element, or end, the index
// after it and done; -1 for anything else.
func next(data []byte, i int, end byte) (int, bool) {
	i = skipSpace(data, i)
	switch {
	case i >= len(data):
		return -1, false
	case data[i] == ',':
		return skipSpace(data, i+1), false
	case data[i] == end:
		return i + 1, true
	}
	return -1, false
}
