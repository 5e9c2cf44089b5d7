package child

import (
	"slices"
	"testing"
)

// What a person typed while no agent ran is read for the next agent: the
// text is given, as edited; the keys that acted on the gone agent's
// screen are named and not given; what the terminal sent on its own is
// no one's words.
func TestReadTypeahead(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		submitted []string
		tail      string
		dropped   []string
	}{
		{"a line and Enter", "fix the tests\r", []string{"fix the tests"}, "", nil},
		{"a line still being typed", "fix the", nil, "fix the", nil},
		{"two lines, and a third begun", "do A\rdo B\r\nand", []string{"do A", "do B"}, "and", nil},
		{"edited as typed", "fix teh\x7f\x7fhe tests\r", []string{"fix the tests"}, "", nil},
		{"Ctrl-U and Ctrl-W", "junk\x15fix the old\x17tests", nil, "fix the tests", nil},
		{"a dialog's answer is not a prompt", "1\r", nil, "", []string{`"1" and Enter`}},
		{"a lone Enter", "\r", nil, "", []string{"Enter"}},
		{"Esc, arrows and Ctrl-C", "\x1b\x1b[A\x1bOB\x03", nil, "", []string{"Esc", "↑", "↓", "Ctrl-C"}},
		{"Esc at the end", "\x1b", nil, "", []string{"Esc"}},
		{"keys with modifiers, function keys", "\x1b[1;5C\x1b[3~\x1b[15~\x1bOP\x1b[Z", nil, "", []string{"Ctrl-→", "Delete", "F5", "F1", "Shift-Tab"}},
		{"Esc and typing on: the text is kept", "\x1bnow do X", nil, "now do X", []string{"Esc"}},
		{"Esc and typing on with an O", "\x1bOk then", nil, "Ok then", []string{"Esc"}},
		{"the terminal's own reports are left out", "\x1b[I\x1b[O\x1b[<0;10;5M\x1b[12;40R\x1b[?62;22c\x1b]11;rgb:0000/0000/0000\x1b\\\x1b]10;rgb:ffff/ffff/ffff\x07hi\r",
			[]string{"hi"}, "", nil},
		{"a bracketed paste is text, newlines and all", "look at \x1b[200~line one\rline two\x1b[201~ please\r",
			[]string{"look at line one\nline two please"}, "", nil},
		{"text around dropped keys", "fix\x1b[D the tests\r", []string{"fix the tests"}, "", []string{"←"}},
		{"UTF-8 is kept, and backspace takes a whole character", "é\x7fcafé ☕\r", []string{"café ☕"}, "", nil},
		{"tabs are text", "a\tb\r", []string{"a\tb"}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ReadTypeahead([]byte(tc.in))
			if !slices.Equal(got.Submitted, tc.submitted) || got.Tail != tc.tail || !slices.Equal(got.Dropped, tc.dropped) {
				t.Fatalf("ReadTypeahead(%q) = %#v; want submitted %q tail %q dropped %q", tc.in, got, tc.submitted, tc.tail, tc.dropped)
			}
		})
	}
}
