package cli

import "testing"

// TestArgCountInWords: cobra's "accepts 1 arg(s), received 0" reached the
// person as it was; each of its forms is said in words, and any other
// error is left alone.
func TestArgCountInWords(t *testing.T) {
	for _, tc := range []struct{ msg, want string }{
		{"accepts 1 arg(s), received 0", "takes 1 argument, and was given none"},
		{"accepts 2 arg(s), received 3", "takes 2 arguments, and was given 3"},
		{"requires at least 1 arg(s), only received 0", "takes at least 1 argument, and was given none"},
		{"accepts at most 1 arg(s), received 2", "takes at most 1 argument, and was given 2"},
		{"accepts between 1 and 2 arg(s), received 0", "takes 1 or 2 arguments, and was given none"},
		{"accepts between 1 and 3 arg(s), received 4", "takes 1 to 3 arguments, and was given 4"},
	} {
		if got, ok := ArgCount(tc.msg); !ok || got != tc.want {
			t.Errorf("ArgCount(%q) = %q, %v; want %q", tc.msg, got, ok, tc.want)
		}
	}
	for _, msg := range []string{"unknown command \"x\" for \"superclaude +up\"", "fleet file x: no such file", ""} {
		if got, ok := ArgCount(msg); ok {
			t.Errorf("ArgCount(%q) = %q; want it left alone", msg, got)
		}
	}
}
