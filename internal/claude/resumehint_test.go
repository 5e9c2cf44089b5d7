package claude

import (
	"strings"
	"testing"
)

// The hint as Claude Code 2.1.x writes it on exit (measured through a tmux
// pipe-pane; the bytes before it are its terminal reset).
const measuredHint = "\x1b]0;\a\x1b[2m\x1b[22m\r\n\x1b[2mResume this session with:\x1b[22m\r\n" +
	"\x1b[2mclaude --resume 34e61cdb-8d43-46c0-aa6c-941761badb8f\x1b[22m\r\n\x1b[2m\x1b[22m\x1b[?25h"

func TestRewriteResumeHint(t *testing.T) {
	const id = "34e61cdb-8d43-46c0-aa6c-941761badb8f"
	ours := "superclaude --resume " + id
	for _, tc := range []struct {
		name, in, write string
		keep            int
	}{
		{"the measured hint", measuredHint, strings.Replace(measuredHint, "claude --resume "+id, ours, 1), 0},
		{"with the flags some versions print",
			"Resume this session with:\r\nclaude --settings /tmp/sc-1/settings.json --plugin-dir /tmp/sc-1/plugin --resume " + id + "\r\n",
			"Resume this session with:\r\n" + ours + "\r\n", 0},
		{"twice in one chunk",
			"Resume this session with:\r\nclaude --resume " + id + "\r\nx Resume this session with:\nclaude --resume " + id,
			"Resume this session with:\r\n" + ours + "\r\nx Resume this session with:\n" + ours, 0},
		{"ordinary output", "hello \x1b[1mworld\x1b[m\r\n", "hello \x1b[1mworld\x1b[m\r\n", 0},
		{"ends in a short beginning of the anchor: not delayed", "… Resume", "… Resume", 0},
		{"ends in a long beginning of the anchor: kept", "abc Resume this ses", "abc ", len("Resume this ses")},
		{"ends in the hint's dim lead-in: kept", "abc\x1b[2m", "abc", len("\x1b[2m")},
		{"ends in the lead-in and a short beginning: kept", "abc\x1b[2mRes", "abc", len("\x1b[2mRes")},
		{"a short beginning after another attribute: not delayed", "abc\x1b[1mRes", "abc\x1b[1mRes", 0},
		{"anchor, command not here yet: kept", "abc\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclau",
			"abc\x1b[2m", len("Resume this session with:\x1b[22m\r\n\x1b[2mclau")},
		{"anchor in prose, next line is no command", "Resume this session with: a prompt\r\nthen more\r\nand more",
			"Resume this session with: a prompt\r\nthen more\r\nand more", 0},
		{"not a conversation id", "Resume this session with:\r\nclaude --resume my-session\r\n\r\n",
			"Resume this session with:\r\nclaude --resume my-session\r\n\r\n", 0},
		{"another program's name", "Resume this session with:\r\nxclaude --resume " + id + "\r\n",
			"Resume this session with:\r\nxclaude --resume " + id + "\r\n", 0},
		{"rewritten, then a beginning of the anchor kept",
			"Resume this session with:\r\nclaude --resume " + id + "\r\nResume this",
			"Resume this session with:\r\n" + ours + "\r\n", len("Resume this")},
		{"empty", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write, keep := RewriteResumeHint([]byte(tc.in))
			if string(write) != tc.write || keep != tc.keep {
				t.Fatalf("RewriteResumeHint(%q)\n = %q, keep %d\nwant %q, keep %d", tc.in, write, keep, tc.write, tc.keep)
			}
		})
	}
}

// TestRewriteResumeHintAcrossChunks feeds the measured exit output split at
// every byte, as a caller does (kept bytes go before the next chunk; at the
// end, what is kept is written as it is), and finds the same result as in
// one piece. (Regression: a read that split off the anchor's first few
// bytes let the hint through unchanged; the dim lead-in before them is now
// held with them.)
func TestRewriteResumeHintAcrossChunks(t *testing.T) {
	whole, _ := RewriteResumeHint([]byte(measuredHint))
	anchor := strings.Index(measuredHint, resumeAnchor)
	for cut := 0; cut <= len(measuredHint); cut++ {
		want := string(whole)
		if anchor < len(hintLeadIn) || measuredHint[anchor-len(hintLeadIn):anchor] != hintLeadIn {
			t.Fatal("the measured hint has no lead-in: the cuts inside the anchor's first bytes would pass unchanged")
		}
		var got, pending []byte
		for _, chunk := range []string{measuredHint[:cut], measuredHint[cut:]} {
			in := append(pending, chunk...)
			write, keep := RewriteResumeHint(in)
			got = append(got, write...)
			pending = append([]byte(nil), in[len(in)-keep:]...)
		}
		got = append(got, pending...)
		if string(got) != want {
			t.Fatalf("cut at %d: %q\nwant %q", cut, got, want)
		}
	}
}

// BenchmarkRewriteResumeHint: the cost on every write of the relay, for an
// echo-sized redraw and for a coalesced bulk write with no hint in it.
func BenchmarkRewriteResumeHint(b *testing.B) {
	echo := []byte("\x1b[42;5Hhello wor\x1b[K\x1b[45;1H\x1b[42;14H")
	bulk := []byte(strings.Repeat("aGVsbG8gd29ybGQgUmVzdW1lIHRoaXMgc2Vzc2lvbiB3aXRoOg==\r\n", 128*1024/54))
	for _, bc := range []struct {
		name string
		p    []byte
	}{{"echo", echo}, {"bulk-128KiB", bulk}, {"hint", []byte(measuredHint)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.p)))
			for i := 0; i < b.N; i++ {
				RewriteResumeHint(bc.p)
			}
		})
	}
}

func TestRewriteResumeHintAsTheCommandGiven(t *testing.T) {
	write, _ := RewriteResumeHintAs("./bin/superclaude")([]byte(measuredHint))
	if !strings.Contains(string(write), "./bin/superclaude --resume ") || strings.Contains(string(write), "\x1b[2mclaude --resume") {
		t.Errorf("rewritten as %q", write)
	}
}
