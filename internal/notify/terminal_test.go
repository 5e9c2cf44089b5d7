package notify

import (
	"strings"
	"testing"
)

// What goes to the terminal: OSC 9 where the terminal takes it, OSC 777
// for rxvt and foot; inside tmux, wrapped for tmux's passthrough when it
// is on, else a bell (tmux drops other sequences); never a control
// character of the title or body, which could end the sequence early or
// start one of its own.
func TestTerminalSinkSequence(t *testing.T) {
	n := Notification{Title: "superclaude: S needs input", Body: "S on box: answer\nT on box: look"}
	nasty := Notification{Title: "a\x1b]0;pwned\x07;b", Body: "c\x1b\\d\x07e"}
	for _, tc := range []struct {
		name string
		sink TerminalSink
		n    Notification
		want string
	}{
		{"xterm: OSC 9", TerminalSink{Term: "xterm-256color"}, n,
			"\x1b]9;superclaude: S needs input: S on box: answer; T on box: look\x1b\\"},
		{"no TERM: OSC 9", TerminalSink{}, n,
			"\x1b]9;superclaude: S needs input: S on box: answer; T on box: look\x1b\\"},
		{"rxvt: OSC 777", TerminalSink{Term: "rxvt-unicode-256color"}, n,
			"\x1b]777;notify;superclaude: S needs input;S on box: answer; T on box: look\x1b\\"},
		{"foot: OSC 777, no ; in the title", TerminalSink{Term: "foot"}, Notification{Title: "a;b", Body: "c"},
			"\x1b]777;notify;a,b;c\x1b\\"},
		{"tmux with passthrough: wrapped, its ESCs doubled", TerminalSink{Term: "tmux-256color", InTmux: true, Passthrough: true}, n,
			"\x1bPtmux;\x1b\x1b]9;superclaude: S needs input: S on box: answer; T on box: look\x1b\x1b\\\x1b\\"},
		{"tmux with passthrough, rxvt outside", TerminalSink{Term: "rxvt", InTmux: true, Passthrough: true}, Notification{Title: "t", Body: "b"},
			"\x1bPtmux;\x1b\x1b]777;notify;t;b\x1b\x1b\\\x1b\\"},
		{"tmux without passthrough: a bell", TerminalSink{Term: "tmux-256color", InTmux: true}, n, "\a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.sink.Sequence(tc.n)); got != tc.want {
				t.Errorf("Sequence = %q, want %q", got, tc.want)
			}
		})
	}
	for _, sink := range []TerminalSink{{Term: "xterm"}, {Term: "foot"}, {InTmux: true, Passthrough: true}} {
		seq := string(sink.Sequence(nasty))
		inner := strings.TrimSuffix(seq, "\x1b\\")
		if sink.InTmux {
			inner = strings.TrimSuffix(strings.TrimPrefix(inner, "\x1bPtmux;"), "\x1b\x1b\\")
			inner = strings.ReplaceAll(inner, "\x1b\x1b", "\x1b")
		}
		inner = strings.TrimPrefix(inner, "\x1b]") // the sequence's own start
		if strings.ContainsAny(inner, "\x1b\x07") {
			t.Errorf("%+v: a control character of the text reached the sequence: %q", sink, seq)
		}
	}
}
