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
