package child

import (
	"bytes"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// What is written to an agent's terminal while it runs — the person's
// keys the terminal relays (Terminal.input), the held ones it is given
// (GiveTypeahead) and superclaude's own typing (Type) — is logged with
// the time each write reached it, so that once it has ended it can be
// read back (Agent.Typed): the lines whose Enter reached it, and when, and
// the line left unfinished in its input box. A restart can come between a
// person's Enter and the agent's taking of that line as a prompt (its
// prompt hook never ran), and the line being typed sits in the input box
// of the agent that ends: the supervisor gives both to the next agent.
//
// The log is read as Claude Code 2.1.330's input box takes keys, as
// measured (e2e/lab_typing_test.go; docs/design.md, what we rely on):
// an Enter submits the line — in a write of its own, or with text in a
// write of fewer than 64 characters (typing) — but in a write of 64 or
// more (a paste) it is a newline; a backslash before Enter, Alt-Enter
// and Ctrl-J put a newline in the line too; Ctrl-C empties the box, and so does Esc
// pressed twice (once leaves it). Keys whose effect on the box is not
// followed — ↑ and ↓ (the history), Tab (completion), a click — make the
// line they edit unknown: it is not read back as text.

// pasteChars is the length from which Claude Code takes one write for a
// paste, not typing: the Enters in it are newlines.
const pasteChars = 64

// maxTyped bounds the log: a person types a few lines a minute, and only
// the last ones matter, those typed a moment before the agent ended.
const maxTyped = 64 << 10

// typedLog is the bounded log of what was written to an agent's terminal.
type typedLog struct {
	mu     sync.Mutex
	chunks []typedChunk
	size   int
	// cut is set once bytes were dropped from the front.
	cut bool
	// dropped counts the chunks dropped from the front, so that add's
	// numbers stay good for undo.
	dropped int
	// buf is where the chunks' bytes are kept: each chunk's b is a piece
	// of it, so that a keystroke's write allocates nothing (see add).
	// Only appended to; a full one is left to the chunks still in it and
	// a new one started.
	buf []byte
}

// typedBuf is the size of each of typedLog's buffers: one allocation per
// this many bytes typed.
const typedBuf = 16 << 10

// typedChunk is one write: its bytes, when they reached the agent — kept
// only for a write holding an Enter (CR), the one time readTyped reads —
// and whether superclaude wrote them (Type), not the person.
type typedChunk struct {
	at   time.Time
	b    []byte
	ours bool
}

// add logs one write about to be made at at, and returns its number for
// undo. The oldest bytes go once the log is past maxTyped — those before
// this write, so that undoing it leaves the log as it was.
//
// It is on every keystroke's path (Terminal.input), where a few hundred
// nanoseconds of work cost the echo microseconds: added to after the
// write, with a copy of each key in an allocation of its own and the
// clock read for every key, the log made the relay's echo about 11 µs
// slower at p50 (docs/benchmarks.md, the keystroke echo, 2026-12-02); the
// clock alone, read after the write, about 5 µs. The same work measured
// cheaper before the write than after it, where it holds up the
// supervisor's return to the poller while the key is on its way. So
// Agent.write logs first, the bytes go into a shared buffer, and the
// clock is read only for a write that holds an Enter.
func (l *typedLog) add(p []byte, at time.Time, ours bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trim()
	if len(l.buf)+len(p) > cap(l.buf) {
		l.buf = make([]byte, 0, max(typedBuf, len(p)))
	}
	start := len(l.buf)
	l.buf = append(l.buf, p...)
	l.chunks = append(l.chunks, typedChunk{at: at, b: l.buf[start:len(l.buf):len(l.buf)], ours: ours})
	l.size += len(p)
	return l.dropped + len(l.chunks) - 1
}

// undo takes out write n (add's number), which did not reach the agent.
// Another write logged since keeps its number: n is emptied, not removed,
// unless it is the last.
func (l *typedLog) undo(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := n - l.dropped
	if i < 0 || i >= len(l.chunks) {
		return
	}
	l.size -= len(l.chunks[i].b)
	if i == len(l.chunks)-1 {
		l.chunks = l.chunks[:i]
	} else {
		l.chunks[i].b = nil
	}
}

// trim drops the oldest bytes past maxTyped; l.mu is held.
func (l *typedLog) trim() {
	for l.size > maxTyped {
		over := l.size - maxTyped
		first := &l.chunks[0]
		if len(first.b) <= over {
			l.size -= len(first.b)
			l.chunks = l.chunks[1:]
			l.dropped++
		} else {
			first.b = first.b[over:]
			l.size -= over
		}
		l.cut = true
	}
}

// snapshot returns the chunks logged so far and whether the log was cut.
func (l *typedLog) snapshot() ([]typedChunk, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trim()
	return append([]typedChunk(nil), l.chunks...), l.cut
}

// Typed is what was written to an agent's terminal, read back as its
// input box took it.
type Typed struct {
	// Lines are the lines submitted with Enter, in order.
	Lines []TypedLine
	// Tail is the line left in the input box, unfinished; TailKnown is
	// false when a key not followed edited it (then Tail is a guess).
	Tail      string
	TailKnown bool
}

// TypedLine is one line submitted with Enter.
type TypedLine struct {
	Text string
	// At is when its Enter reached the agent.
	At time.Time
	// Known is false when a key not followed edited it, or the log's
	// front was cut off in it: Text is then a guess.
	Known bool
	// Ours is set when superclaude typed some of it (Type), not the
	// person alone.
	Ours bool
}

// Typed reads back what was written to the agent's terminal (see above).
// It is meant for an agent that has ended: nothing is written to it then.
func (a *Agent) Typed() Typed {
	chunks, cut := a.typed.snapshot()
	return readTyped(chunks, cut)
}

// readTyped reads logged writes as Claude Code's input box takes them.
// cut says that the log's front was dropped: the first line is then not
// known, and when the cut fell inside a bracketed paste, what is left of
// the paste is skipped, as its newlines are no Enters.
func readTyped(chunks []typedChunk, cut bool) Typed {
	var in []byte
	ends := make([]int, len(chunks)) // the offset just past each chunk
	for i, c := range chunks {
		in = append(in, c.b...)
		ends[i] = len(in)
	}
	// chunkAt finds the chunk holding in[off], for offsets that do not
	// go back: keys are read in order.
	ci := 0
	chunkAt := func(off int) int {
		for ci < len(ends)-1 && ends[ci] <= off {
			ci++
		}
		return ci
	}
	from := 0
	if cut {
		end, begin := bytes.Index(in, []byte(pasteEnd)), bytes.Index(in, []byte(pasteStart))
		if end >= 0 && (begin < 0 || end < begin) {
			from = end + len(pasteEnd)
		}
	}
	var t Typed
	var box []rune
	cursor, known, ours := 0, !cut, false
	prev := keyEvent{kind: keyReport, start: -1, end: -1, chunk: -1}
	insert := func(rs ...rune) {
		box = append(box[:cursor], append(rs, box[cursor:]...)...)
		cursor += len(rs)
	}
	clear := func() { box, cursor, known, ours = box[:0], 0, true, false }
	scanKeys(in[from:], func(k keyEvent) {
		k.start, k.end = k.start+from, k.end+from
		first := chunkAt(k.start)
		k.chunk = chunkAt(max(k.end-1, k.start))
		for i := first; i <= k.chunk; i++ {
			ours = ours || chunks[i].ours
		}
		// ESC and a key written together: Alt and that key.
		alt := prev.kind == keyNamed && prev.name == "Esc" && prev.end == k.start && prev.chunk == first
		switch k.kind {
		case keyEnter:
			switch {
			case alt || utf8.RuneCount(chunks[first].b) >= pasteChars:
				// Alt-Enter (ESC and Enter), or Enter in a paste: a
				// newline.
				insert('\n')
			case cursor > 0 && box[cursor-1] == '\\':
				// A backslash before Enter: a newline in its place.
				box = append(box[:cursor-1], box[cursor:]...)
				cursor--
				insert('\n')
			default:
				t.Lines = append(t.Lines, TypedLine{Text: string(box), At: chunks[first].at, Known: known, Ours: ours})
				clear()
			}
		case keyLineFeed:
			insert('\n')
		case keyText:
			if k.r == '\t' || alt {
				known = false // completion; a word moved over
			}
			insert(k.r)
		case keyPaste:
			insert([]rune(k.text)...)
		case keyBackspace:
			if cursor > 0 {
				box = append(box[:cursor-1], box[cursor:]...)
				cursor--
			}
		case keyKillLine:
			if strings.ContainsRune(string(box[:cursor]), '\n') {
				known = false // to the start of which line?
			}
			box, cursor = box[cursor:], 0
		case keyKillWord:
			j := wordStart(box, cursor)
			box, cursor = append(box[:j], box[cursor:]...), j
		case keyNamed:
			switch k.name {
			case "Ctrl-C":
				clear()
			case "Esc":
				if prev.kind == keyNamed && prev.name == "Esc" {
					clear()
					k.name = "" // a third Esc starts again
				}
			case "←":
				cursor = max(cursor-1, 0)
			case "→":
				cursor = min(cursor+1, len(box))
			case "Home", "End":
				if strings.ContainsRune(string(box), '\n') {
					known = false // the start or end of which line?
				} else if k.name == "Home" {
					cursor = 0
				} else {
					cursor = len(box)
				}
			case "Delete":
				if cursor < len(box) {
					box = append(box[:cursor], box[cursor+1:]...)
				}
			default:
				known = false
			}
		case keyReport:
			if movesCursor(in[k.start:k.end]) {
				known = false
			}
		}
		prev = k
	})
	t.Tail, t.TailKnown = string(box), known
	return t
}

const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// movesCursor reports whether a sequence readEscape names no key for
// is still one a person made that can edit the input box: a key in the
// kitty keyboard protocol's form (CSI … u) or xterm's modifyOtherKeys
// (CSI 27 ; … ~), or a mouse button pressed (a click places the cursor).
// Focus reports, a wheel's turn and answers to queries are not.
func movesCursor(seq []byte) bool {
	if len(seq) < 3 || seq[1] != '[' {
		return false
	}
	final, params := seq[len(seq)-1], string(seq[2:len(seq)-1])
	switch {
	case final == 'u':
		return true
	case final == '~' && strings.HasPrefix(params, "27;"):
		return true
	case (final == 'M' || final == 'm') && strings.HasPrefix(params, "<"):
		// SGR mouse: button;x;y. Buttons 0–2 pressed; motion (+32) and
		// the wheel (64+) leave the cursor.
		b, _, _ := strings.Cut(params[1:], ";")
		return final == 'M' && (b == "0" || b == "1" || b == "2")
	}
	return false
}

// GivesBack is what the supervisor gives back to the terminal, for the
// next agent, of what an agent that ended was given and never took:
// lines to submit, and the line left unfinished in its input box.
type GivesBack struct {
	Lines []string
	Tail  string
}

// Empty reports whether there is nothing to give back.
func (g GivesBack) Empty() bool { return len(g.Lines) == 0 && g.Tail == "" }

// raw renders g as the keys that type it: each line and Enter, then the
// tail — a line that holds a newline as a bracketed paste, so that it
// stays one line.
func (g GivesBack) raw() []byte {
	var b []byte
	text := func(s string) {
		if strings.ContainsAny(s, "\r\n") {
			b = append(b, pasteStart+s+pasteEnd...)
		} else {
			b = append(b, s...)
		}
	}
	for _, l := range g.Lines {
		text(l)
		b = append(b, '\r')
	}
	text(g.Tail)
	return b
}
