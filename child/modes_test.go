package child

import (
	"strings"
	"testing"
)

func TestModeTrackerResetsWhatTheAgentLeftOn(t *testing.T) {
	for _, tc := range []struct {
		name, out, reset string
	}{
		{"plain text", "hello\r\nworld", ""},
		{"colours reset by the agent", "\x1b[38;5;174mred\x1b[0m", ""},
		{"colour left on", "\x1b[1;31mred", "\x1b[m"},
		{"alternate screen left on", "\x1b[?1049h\x1b[2J", "\x1b[?1049l"},
		{"alternate screen left cleanly", "\x1b[?1049h\x1b[?1049l", ""},
		{"hidden cursor", "\x1b[?25l", "\x1b[?25h"},
		{"hidden then shown", "\x1b[?25l\x1b[?25h", ""},
		{"mouse, every mode, in one sequence", "\x1b[?1000;1002;1003;1006h", "\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l"},
		{"focus and bracketed paste", "\x1b[?1004h\x1b[?2004h", "\x1b[?2004l\x1b[?1004l"},
		{"modifyOtherKeys", "\x1b[>4;2m", "\x1b[>4m"},
		{"modifyOtherKeys reset", "\x1b[>4;2m\x1b[>4m", ""},
		{"kitty keyboard pushed twice, popped once", "\x1b[>1u\x1b[>3u\x1b[<u", "\x1b[<1u"},
		{"kitty pop with a count", "\x1b[>1u\x1b[>1u\x1b[<2u", ""},
		{"kitty pop below empty", "\x1b[<5u", ""},
		{"kitty pushed on the alternate screen pops there first",
			"\x1b[>1u\x1b[?1049h\x1b[>1u", "\x1b[<1u\x1b[?1049l\x1b[<1u"},
		{"synchronized output left open", "\x1b[?2026h", "\x1b[?2026l"},
		{"autowrap switched off", "\x1b[?7l", "\x1b[?7h"},
		{"application keypad", "\x1b=", "\x1b>"},
		{"scroll region", "\x1b[5;20r", "\x1b7\x1b[r\x1b8"},
		{"scroll region reset", "\x1b7\x1b[r\x1b8", ""},
		{"cursor shape", "\x1b[5 q", "\x1b[0 q"},
		{"queries change nothing", "\x1b[>0q\x1b[?u\x1b[c\x1b]7501;?\x07", ""},
		{"an OSC that hides a mode sequence", "\x1b]0;\x1b[?1049h title\x07", ""},
		{"an OSC ended by ST", "\x1b]0;title\x1b\\\x1b[?25l", "\x1b[?25h"},
		{"an unfinished OSC is ended", "\x1b]0;title", "\x1b\\"},
		{"RIS forgets everything", "\x1b[?1049h\x1b[?25l\x1bc", ""},
		{"unknown private modes are left alone", "\x1b[?12h\x1b[?9999h", ""},
		{"an overlong sequence is skipped", "\x1b[?" + strings.Repeat("1;", 100) + "1049h", ""},
		{"what claude 2.1.330 switches on",
			"\x1b7\x1b[r\x1b8\x1b[?25h\x1b[?2004h\x1b[?2031h\x1b[?1004h\x1b[?1049h\x1b[2J\x1b[H\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?25l\x1b[>1u\x1b[>4;2m",
			"\x1b[<1u\x1b[?1049l\x1b[>4m\x1b[?2031l\x1b[?2004l\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?25h"},
		{"what claude 2.1.330 undoes at suspend",
			"\x1b[?2004h\x1b[?2031h\x1b[?1004h\x1b[?1049h\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?25l" +
				"\x1b[?25h\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1004l\x1b[<u\x1b[?1049l\x1b[>4m\x1b[>4m\x1b[<u\x1b[?2031l\x1b[?2004l",
			""},
	} {
		t.Run(tc.name, func(t *testing.T) { checkReset(t, tc.out, tc.reset) })
	}
}

// checkReset feeds out to a tracker, whole and split at every byte
// (sequences cross writes), and wants reset from it.
func checkReset(t *testing.T, out, reset string) {
	t.Helper()
	for split := 0; split <= len(out); split++ {
		m := newModeTracker()
		m.Feed([]byte(out[:split]))
		m.Feed([]byte(out[split:]))
		if got := string(m.Reset()); got != reset {
			t.Fatalf("split at %d: reset %q, want %q", split, got, reset)
		}
	}
}

func BenchmarkModeTracker(b *testing.B) {
	line := []byte(strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=", 2) + "\n")
	chunk := []byte(strings.Repeat(string(line), 16*1024/len(line)))
	m := newModeTracker()
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		m.Feed(chunk)
	}
}

// Issue 21, partial row: a crash could leave the line-drawing character
// set (the screen turns to ┌┐└┘ boxes), insert mode, reverse video, origin
// mode or left-right margins (DECLRMM) on, and superclaude did not reset
// them; the shell after it, or the next agent, inherited them.
func TestCrashLeftCharsetAndModesAreReset(t *testing.T) {
	for _, tc := range []struct {
		name, out, reset string
	}{
		{"line drawing in G0", "\x1b(0lqqk", "\x1b(B"},
		{"line drawing in G1, shifted in", "\x1b)0\x0elqqk", "\x1b)B\x0f"},
		{"line drawing undone", "\x1b(0lqk\x1b(B", ""},
		{"insert mode", "\x1b[4h", "\x1b[4l"},
		{"insert mode undone", "\x1b[4h\x1b[4l", ""},
		{"newline mode", "\x1b[20h", "\x1b[20l"},
		{"reverse video", "\x1b[?5h", "\x1b[?5l"},
		{"origin mode", "\x1b[?6h", "\x1b[?6l"},
		{"left-right margins", "\x1b[?69h", "\x1b[?69l"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkReset(t, tc.out, tc.reset) })
	}
}
