package supervise

import "strings"

// cliSpec is what a scanner must know of a CLI's command line to find its
// positional arguments: which options take a value. Everything else that
// starts with "-" is a flag; "--" ends the options.
type cliSpec struct {
	// valued lists the options that take a value, short and long
	// ("-m", "--model"); "--model=x" is read as well.
	valued map[string]bool
}

// word is one argument of a command line as a scanner reads it.
type word struct {
	text string
	// opt is the option this argument is or belongs to ("--model" for
	// both "--model" and its value), "" for a positional argument.
	opt string
	// value marks an option's separate value.
	value bool
	// afterDashes marks an argument after "--", and the "--" itself.
	afterDashes bool
}

// split reads args into words.
func (c cliSpec) split(args []string) []word {
	out := make([]word, 0, len(args))
	dashes := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashes:
			out = append(out, word{text: a, afterDashes: true})
		case a == "--":
			dashes = true
			out = append(out, word{text: a, afterDashes: true})
		case len(a) > 1 && a[0] == '-':
			name, _, inline := strings.Cut(a, "=")
			out = append(out, word{text: a, opt: name})
			if !inline && c.valued[name] && i+1 < len(args) {
				i++
				out = append(out, word{text: args[i], opt: name, value: true})
			}
		default:
			out = append(out, word{text: a})
		}
	}
	return out
}

// positional reports whether w is a positional argument.
func (w word) positional() bool { return w.opt == "" && (!w.afterDashes || w.text != "--") }

// has reports whether words hold one of the options names (before "--").
func has(words []word, names ...string) bool {
	for _, w := range words {
		for _, n := range names {
			if w.opt == n {
				return true
			}
		}
	}
	return false
}

// optionValue returns the value of the last of the options names in words:
// "--x v" or "--x=v".
func optionValue(words []word, names ...string) (string, bool) {
	var v string
	var found bool
	for _, w := range words {
		for _, n := range names {
			switch {
			case w.opt != n:
			case w.value:
				v, found = w.text, true
			case strings.HasPrefix(w.text, n+"="):
				v, found = strings.TrimPrefix(w.text, n+"="), true
			}
		}
	}
	return v, found
}

// texts returns the words' texts, without those drop says to leave out.
func texts(words []word, drop func(w word) bool) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if drop == nil || !drop(w) {
			out = append(out, w.text)
		}
	}
	return out
}

// set makes a set of names.
func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
