package child

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// chunk is one logged write for readTyped, at second n of a day.
type chunk struct {
	n    int
	b    string
	ours bool
}

var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func at(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }

func logOf(cs ...chunk) []typedChunk {
	out := make([]typedChunk, len(cs))
	for i, c := range cs {
		out[i] = typedChunk{at: at(c.n), b: []byte(c.b), ours: c.ours}
	}
	return out
}

// line is a TypedLine as a test writes it: "text@n", "?" in front for
// a line not known, "ours:" for one superclaude typed into.
func (l TypedLine) String() string {
	s := fmt.Sprintf("%s@%d", l.Text, int(l.At.Sub(t0)/time.Second))
	if !l.Known {
		s = "?" + s
	}
	if l.Ours {
		s = "ours:" + s
	}
	return s
}

// What was relayed to an agent is read back as Claude Code's input box
// took it (e2e/lab_typing_test.go): each line with the time its Enter
// reached the agent, and the line left unfinished in the box.
func TestTypedReadsEachEnterWithItsTime(t *testing.T) {
	for _, tc := range []struct {
		name  string
		log   []chunk
		lines string // TypedLine.String()s joined by "|"
		tail  string // "?" in front: not known
	}{
		{"typed key by key", []chunk{{1, "fix the", false}, {2, " tests", false}, {3, "\r", false}, {4, "next", false}, {5, "\r", false}, {6, "still typing", false}},
			"fix the tests@3|next@5", "still typing"},
		{"text and Enter in one write are submitted", []chunk{{1, "hello there\r", false}, {2, "two\rlines\r", false}}, "hello there@1|two@2|lines@2", ""},
		{"in a write of 64 characters or more, Enter is a newline: a paste", []chunk{{1, strings.Repeat("x", 62) + "\r", false},
			{2, strings.Repeat("é", 30) + "\r" + strings.Repeat("y", 32) + "\r", false}, {3, "\r", false}},
			strings.Repeat("x", 62) + "@1|" + strings.Repeat("é", 30) + "\n" + strings.Repeat("y", 32) + "\n@3", ""},
		{"a bracketed paste keeps its newlines, split across writes", []chunk{{1, "see \x1b[200~one\r", false}, {2, "two\x1b[201~", false}, {3, "\r", false}},
			"see one\ntwo@3", ""},
		{"a pasted tail stays one line", []chunk{{1, "\x1b[200~one\rtwo\x1b[201~", false}}, "", "one\ntwo"},
		{"a backslash before Enter is a newline", []chunk{{1, "upper\\", false}, {2, "\r", false}, {3, "lower", false}, {4, "\r", false}}, "upper\nlower@4", ""},
		{"Alt-Enter and Ctrl-J are newlines", []chunk{{1, "a", false}, {2, "\x1b\r", false}, {3, "b\n", false}, {4, "c\r", false}}, "a\nb\nc@4", ""},
		{"Esc, then Enter later, submits", []chunk{{1, "keep me", false}, {2, "\x1b", false}, {3, "\r", false}}, "keep me@3", ""},
		{"Ctrl-C empties the box", []chunk{{1, "gone", false}, {2, "\x03", false}, {3, "kept", false}}, "", "kept"},
		{"one Esc keeps the box, two empty it", []chunk{{1, "kept", false}, {2, "\x1b", false}, {3, " too", false}, {4, "\x1b", false}, {5, "\x1b", false}, {6, "new", false}},
			"", "new"},
		{"editing: Backspace, Ctrl-W, Ctrl-U, arrows, Home, End, Delete", []chunk{{1, "fix teh\x7f\x7fhe old\x17tests\r", false},
			{2, "helo\x1b[Dl\x1b[Hoh \x1b[F!\r", false}, {3, "junk\x15ok\x1b[D\x1b[D\x1b[3~\r", false}}, "fix the tests@1|oh hello!@2|k@3", ""},
		{"↑ walks the history: the line is not known, the next one is", []chunk{{1, "\x1b[A", false}, {2, "\r", false}, {3, "plain\r", false}, {4, "a\x1b[B", false}},
			"?@2|plain@3", "?a"},
		{"Tab completes: not known", []chunk{{1, "see @RE\tme\r", false}}, "?see @RE\tme@1", ""},
		{"a click places the cursor, the wheel and focus do not", []chunk{{1, "ab\x1b[<64;3;4M\x1b[I\r", false}, {2, "cd\x1b[<0;3;4M\x1b[<0;3;4m", false}},
			"ab@1", "?cd"},
		{"keys in the kitty protocol are not followed", []chunk{{1, "x\x1b[97;5u\r", false}}, "?x@1", ""},
		{"superclaude's own typing marks the line", []chunk{{1, "half ", false}, {2, "continue", true}, {3, "\r", true}, {4, "mine\r", false}},
			"ours:half continue@3|mine@4", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readTyped(logOf(tc.log...), false)
			var lines []string
			for _, l := range got.Lines {
				lines = append(lines, l.String())
			}
			tail := got.Tail
			if !got.TailKnown {
				tail = "?" + tail
			}
			if strings.Join(lines, "|") != tc.lines || tail != tc.tail {
				t.Fatalf("read %q, tail %q; want %q, tail %q", strings.Join(lines, "|"), tail, tc.lines, tc.tail)
			}
		})
	}
}

// The log keeps the last maxTyped bytes. What is left of a line whose
// front was dropped is not known; a paste cut into is skipped, its
// newlines being no Enters.
func TestTypedLogIsBounded(t *testing.T) {
	var l typedLog
	l.add([]byte("old line\r"), at(1), false)
	l.add(bytes.Repeat([]byte("x"), maxTyped-4), at(2), false)
	l.add([]byte("y\rnew"), at(3), false)
	chunks, cut := l.snapshot()
	size := 0
	for _, c := range chunks {
		size += len(c.b)
	}
	if size != maxTyped || !cut {
		t.Fatalf("the log holds %d bytes (cut %v), want %d", size, cut, maxTyped)
	}
	got := readTyped(chunks, cut)
	if len(got.Lines) != 1 || got.Lines[0].Known || got.Lines[0].At != at(3) || got.Tail != "new" || !got.TailKnown {
		t.Fatalf("read %v, tail %q", got.Lines, got.Tail)
	}

	var p typedLog
	p.add([]byte("\x1b[200~"+strings.Repeat("pasted\r", maxTyped/7)), at(1), false)
	p.add([]byte("\x1b[201~ and more"), at(1), false)
	p.add([]byte("\r"), at(1), false)
	p.add([]byte("after\r"), at(2), false)
	got = readTyped(p.snapshot())
	if len(got.Lines) != 2 || got.Lines[0].Known || got.Lines[0].Text != " and more" || got.Lines[1].String() != "after@2" {
		t.Fatalf("a paste cut into: read %v", got.Lines)
	}
}

// A write that fails is taken out of the log (Agent.write logs before it
// writes): only what reached the agent is read back, and a write logged
// in between keeps its place.
func TestTypedLogUndoesAFailedWrite(t *testing.T) {
	var l typedLog
	l.add([]byte("kept\r"), at(1), false)
	lost := l.add([]byte("lost\r"), at(2), false)
	l.add([]byte("typed meanwhile\r"), at(3), true)
	last := l.add([]byte("lost tail"), time.Time{}, false)
	l.undo(last)
	l.undo(lost)
	got := readTyped(l.snapshot())
	if lines := fmt.Sprint(got.Lines); lines != "[kept@1 ours:typed meanwhile@3]" || got.Tail != "" || !got.TailKnown {
		t.Fatalf("read %s, tail %q", lines, got.Tail)
	}

	var a Agent
	if err := a.write(failingWriter{}, []byte("never sent\r"), false); err == nil {
		t.Fatal("the write did not fail")
	}
	if typed := a.Typed(); len(typed.Lines) != 0 || typed.Tail != "" {
		t.Fatalf("a write that failed is read back: %v, tail %q", typed.Lines, typed.Tail)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("the pty is gone") }

// Logging a keystroke allocates nothing: it is on the echo's path, where
// a copy of each key in an allocation of its own (and the clock read for
// every key) made the relay's echo about 11 µs slower at p50
// (docs/benchmarks.md, the keystroke echo on 2026-12-02).
func TestTypedLogOfAKeystrokeAllocatesNothing(t *testing.T) {
	var l typedLog
	key := []byte("k")
	l.add(key, time.Time{}, false) // the first buffer
	if n := testing.AllocsPerRun(1000, func() { l.add(key, time.Time{}, false) }); n != 0 {
		t.Fatalf("%v allocations a keystroke", n)
	}
}

// What is given back to the terminal is held as keys that type it again:
// each line submitted, and a tail that keeps its newlines in one line.
func TestGivesBackIsHeldAsTheKeysThatTypeIt(t *testing.T) {
	g := GivesBack{Lines: []string{"do A", "see\nthis"}, Tail: "half\nway"}
	ta := ReadTypeahead(g.raw())
	if strings.Join(ta.Submitted, "|") != "do A|see\nthis" || ta.Tail != "half\nway" || len(ta.Dropped) != 0 {
		t.Fatalf("held %#v", ta)
	}
}

// The terminal logs what it relays to the agent, and the agent reads it
// back once it has ended: the line it was given, and the one left in its
// input box — put back in front of what is held for the next agent,
// before what was typed meanwhile.
func TestTypedReadsBackWhatTheTerminalRelayed(t *testing.T) {
	tt, master := userTerminal(t)
	if err := tt.MakeRaw(); err != nil {
		t.Fatal(err)
	}
	a, err := Start(spec("rawecho"), tt)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(master)
	readUntil(t, r, "READY")
	eventually(t, "the agent to read keys", a.ReadsKeys)
	before := time.Now()
	master.Write([]byte("the next step\r"))
	readUntil(t, r, `\r"`)
	master.Write([]byte("half a"))
	readUntil(t, r, `got:"half a"`)
	master.Write([]byte("quit"))
	a.Wait()

	got := a.Typed()
	if len(got.Lines) != 1 || got.Lines[0].Text != "the next step" || got.Lines[0].At.Before(before) || !got.Lines[0].Known ||
		got.Tail != "half aquit" || !got.TailKnown {
		t.Fatalf("read back %v, tail %q", got.Lines, got.Tail)
	}
	master.Write([]byte(" more"))
	eventually(t, "the keys to be held", func() bool { return tt.Held().Tail == " more" })
	tt.GiveBack(GivesBack{Tail: "half a"})
	back, typed := tt.HeldApart()
	if tt.Held().Tail != "half a more" || back.Tail != "half a" || typed.Tail != " more" {
		t.Fatalf("held %#v: given back %#v, typed %#v", tt.Held(), back, typed)
	}
}
