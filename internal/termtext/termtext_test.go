package termtext

import "testing"

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
