package termtext

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Opus 5.5", "Opus 5.5"},
		{"Phase 2: Build · ünïcödé 日本", "Phase 2: Build · ünïcödé 日本"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"\x1b]0;pwned\x07title", "]0;pwnedtitle"},
		{"\x1b]52;c;ZXZpbA==\x07", "]52;c;ZXZpbA=="},
		{"a\tb\nc\rd", "a b c d"},
		{"del\x7f", "del"},
		{"c1\u009b31m", "c131m"},
		{"bad \x9b byte", "bad \ufffd byte"},
		{"abc\u202edcba", "abcdcba"},
		{"nul\x00", "nul"},
		{"", ""},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Lines keeps a text's line breaks, one problem a line, and cleans each
// line of everything else Clean takes out.
func TestLinesKeepsLineBreaksOnly(t *testing.T) {
	got := Lines("one\x1b[2J\r\ntwo\tthree\n\n\x1b]0;t\x07four\n")
	want := []string{"one[2J", "two three", "]0;tfour"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Lines = %q, want %q", got, want)
	}
	if got := Lines(""); len(got) != 0 {
		t.Fatalf("Lines(\"\") = %q", got)
	}
}
