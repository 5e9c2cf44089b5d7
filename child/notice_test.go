package child

import (
	"bytes"
	"testing"
)

// A notification written while the agent's output stands in the middle of
// an escape sequence or of a character would break the agent's screen: it
// waits for the output to reach a boundary, and goes right after the
// first piece of output that ends at one.
func TestNoticeWaitsForABoundary(t *testing.T) {
	const osc = "\x1b]9;needs input\x07"
	for _, tc := range []struct {
		name   string
		chunks []string // the agent's output, written before and after the notice
		at     int      // the notice comes after this many chunks
		want   string
	}{
		{"at once between outputs", []string{"hello ", "world"}, 1, "hello " + osc + "world"},
		{"not inside a CSI", []string{"a\x1b[3", "1mred"}, 1, "a\x1b[31mred" + osc},
		{"not inside an OSC", []string{"\x1b]0;tit", "le\x07next"}, 1, "\x1b]0;title\x07next" + osc},
		{"not inside a character", []string{"caf\xc3", "\xa9!"}, 1, "café!" + osc},
		{"before any output", []string{"x"}, 0, osc + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			a := &Agent{pty: nil, modes: newModeTracker(), term: &Terminal{output: &out}}
			w := modeWriter{a}
			for i, c := range tc.chunks {
				if i == tc.at {
					a.modesMu.Lock()
					if a.atBoundary() {
						out.WriteString(osc)
					} else {
						a.notice = append(a.notice, osc...)
					}
					a.modesMu.Unlock()
				}
				w.Write([]byte(c))
			}
			if got := out.String(); got != tc.want {
				t.Fatalf("terminal got %q, want %q", got, tc.want)
			}
		})
	}
}
