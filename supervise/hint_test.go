package supervise

import (
	"strings"
	"testing"
)

// Codex's and Gemini CLI's exit hints name a command that would run the
// agent without superclaude: it is rewritten to a supervised one, in any
// split of the output, and a hint in a padded box keeps its border.
func TestExitHintsNameASupervisedCommand(t *testing.T) {
	const id = "01a2135e-91a8-7202-a794-a9a50eb18a9d"
	codex := rewriteHint("codex resume", "superclaude +run --profile codex -- resume")
	gemini := rewriteHint("gemini --resume", "superclaude +run --profile gemini -- --resume")
	pad := strings.Repeat(" ", 40)
	for _, tc := range []struct {
		name     string
		rw       func([]byte) ([]byte, int)
		in, want string
	}{
		{"codex", codex, "To continue this session, run:\r\n  codex resume " + id + "\r\n",
			"To continue this session, run:\r\n  superclaude +run --profile codex -- resume " + id + "\r\n"},
		{"gemini in a box", gemini, "│  To resume this session: gemini --resume " + id + pad + "│",
			"│  To resume this session: superclaude +run --profile gemini -- --resume " + id + pad[:40-30] + "│"},
		// Regression, issue 19: Gemini CLI 0.61 draws its hint in a
		// gradient, a colour change every few characters, inside the
		// command and the id (as measured on its screen); the hint was
		// left naming gemini.
		{"gemini in a gradient", gemini,
			"\x1b[38;5;74mTo r\x1b[38;5;110mesume this session: gemini\x1b[38;5;104m --re\x1b[38;5;140msume 01a2135e-91\x1b[38;5;139ma8-7202-a794-a9\x1b[38;5;175ma50eb18a9\x1b[38;5;174md\x1b[39m" + pad + "\x1b[38;5;244m│",
			"\x1b[38;5;74mTo r\x1b[38;5;110mesume this session: superclaude +run --profile gemini -- --resume " + id +
				"\x1b[38;5;104m\x1b[38;5;140m\x1b[38;5;139m\x1b[38;5;175m\x1b[38;5;174m\x1b[39m" + pad[:40-30] + "\x1b[38;5;244m│"},
		{"gemini in a gradient, not padded", gemini,
			"gemini\x1b[1m --resume " + id + "\x1b[0m\r\n",
			"superclaude +run --profile gemini -- --resume " + id + "\x1b[1m\x1b[0m\r\n"},
		{"another escape inside", gemini, "gemini \x1b[2K--resume " + id, "gemini \x1b[2K--resume " + id},
		{"not an id", codex, "run codex resume --last to go on", "run codex resume --last to go on"},
		{"prose", codex, "nothing to see", "nothing to see"},
	} {
		for cut := 0; cut <= len(tc.in); cut++ {
			var out []byte
			var kept []byte
			for _, chunk := range []string{tc.in[:cut], tc.in[cut:]} {
				w, keep := tc.rw(append(kept, chunk...))
				p := append(kept, chunk...)
				kept = append([]byte(nil), p[len(p)-keep:]...)
				out = append(out, w...)
			}
			out = append(out, kept...)
			if string(out) != tc.want {
				t.Fatalf("%s, cut at %d:\n got %q\nwant %q", tc.name, cut, out, tc.want)
			}
		}
	}
}
