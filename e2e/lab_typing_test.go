package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Lab: what claude 2.1.330 makes of a line typed into its input box —
// which lines reach its UserPromptSubmit hook, and how soon after their
// Enter; what Ctrl-C and Esc do to text not yet sent; and what a line and
// its Enter in one write are. superclaude reads the keys it relayed to a
// claude that ended by these rules (child.Agent.Typed) to find a prompt
// typed a moment before a restart that claude never took.
func TestLabTypingWhatReachesUserPromptSubmit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	l := newLab(t, w)
	l.start()
	enter := func(what string) time.Time {
		t.Helper()
		l.tm.waitScreen(l.pane, "❯")
		l.tm.must("send-keys", "-t", l.pane, "-l", what)
		probe := strings.TrimLeft(what, "/!#")
		if len(probe) > 40 {
			probe = probe[:40]
		}
		deadline := time.Now().Add(wait)
		for !strings.Contains(l.tm.capture(l.pane), probe) {
			if time.Now().After(deadline) {
				t.Fatalf("the input box never showed %q:\n%s", what, l.tm.capture(l.pane))
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(150 * time.Millisecond)
		at := time.Now()
		l.tm.must("send-keys", "-t", l.pane, "Enter")
		return at
	}
	// prompt submits text and waits for its UserPromptSubmit: how long
	// after the Enter the hook ran.
	prompt := func(text string) time.Duration {
		t.Helper()
		at := enter(text)
		p := l.waitPayload("hook-UserPromptSubmit", 0, func(p payload) bool { return p.Str("prompt") == text })
		return p.At.Sub(at)
	}
	// idleAgain waits for the turn begun after at to end.
	idleAgain := func(at time.Time) {
		t.Helper()
		l.sessions.wait("busy after "+at.Format("15:04:05.000"), func(s sessionSample) bool { return s.Status == "busy" && s.At.After(at) })
		l.sessions.wait("idle after "+at.Format("15:04:05.000"), func(s sessionSample) bool { return s.Status == "idle" && s.At.After(at) })
	}
	// promptsSince lists the prompts UserPromptSubmit got after at.
	promptsSince := func(at time.Time) []string {
		var got []string
		for _, p := range l.payloads("hook-UserPromptSubmit") {
			if p.At.After(at) {
				got = append(got, p.Str("prompt"))
			}
		}
		return got
	}

	// (a) At an idle prompt, and while a turn streams (the line queued).
	var idle []time.Duration
	for i := range 3 {
		at := time.Now()
		idle = append(idle, prompt("idle prompt number "+string(rune('1'+i))))
		idleAgain(at)
	}
	hold := make(chan struct{})
	w.api.Push(fakeapi.Reply{Content: fakeapi.Text("the held reply").Content, Hold: hold})
	mark := w.api.Mark()
	at := time.Now()
	prompt("stream a held reply")
	if _, ok := w.api.WaitAfter(mark, wait, fakeapi.IsTurn); !ok {
		t.Fatal("the prompt was not sent")
	}
	queued := prompt("typed while busy")
	close(hold)
	if _, ok := w.api.WaitAfter(mark+1, wait, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && strings.Contains(r.LastUserText(), "typed while busy")
	}); !ok {
		t.Fatal("the queued prompt was never sent")
	}
	idleAgain(at)
	time.Sleep(time.Second)
	t.Logf("UserPromptSubmit after Enter: idle %v; queued while a turn streams %v", idle, queued)
	for _, d := range append(idle, queued) {
		if d > 3*time.Second {
			t.Errorf("UserPromptSubmit came %v after the Enter", d)
		}
	}

	// (b) Which lines reach the hook. Each is followed by a plain
	// prompt, after which every payload the line would have caused is in.
	sentinels := 0
	fires := func(line string, after func()) bool {
		t.Helper()
		from := time.Now()
		enter(line)
		time.Sleep(2 * time.Second)
		if after != nil {
			after()
		}
		at := time.Now()
		sentinels++
		prompt(fmt.Sprintf("sentinel number %d", sentinels))
		idleAgain(at)
		fired := false
		for _, p := range l.payloads("hook-UserPromptSubmit") {
			fired = fired || p.At.After(from) && strings.Contains(p.Str("prompt"), strings.TrimLeft(line, "/!#"))
		}
		return fired
	}
	esc := func() { l.tm.must("send-keys", "-t", l.pane, "Escape"); time.Sleep(500 * time.Millisecond) }
	// closeDialog closes what a command opened (a picker, a panel).
	closeDialog := func() {
		for range 3 {
			if s := strings.ToLower(l.tm.capture(l.pane)); !strings.Contains(s, "esc to") {
				return
			}
			esc()
		}
	}
	got := map[string]bool{}
	for _, line := range []string{"/model", "/help", "/cost", "!echo lab-bang", "#lab note"} {
		got[line] = fires(line, closeDialog)
	}
	t.Logf("UserPromptSubmit fired: %v", got)
	want := map[string]bool{"/model": false, "/help": false, "/cost": false, "!echo lab-bang": false, "#lab note": true}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q fired UserPromptSubmit: %v, want %v", k, got[k], v)
		}
	}

	// (c) Ctrl-C and Esc on text in the input box.
	inBox := func(text string) bool { return inputShows(l.tm.capture(l.pane), text) }
	typeOnly := func(text string) {
		l.tm.must("send-keys", "-t", l.pane, "-l", text)
		l.tm.waitScreen(l.pane, text)
		time.Sleep(150 * time.Millisecond)
	}
	typeOnly("text then ctrl-c")
	l.tm.must("send-keys", "-t", l.pane, "C-c")
	time.Sleep(time.Second)
	ctrlC := inBox("text then ctrl-c")
	afterCtrlC := l.tm.capture(l.pane)
	time.Sleep(2 * time.Second) // past the "again to exit"
	typeOnly("text then esc")
	esc()
	oneEsc := inBox("text then esc")
	esc()
	twoEsc := inBox("text then esc")
	t.Logf("text kept after Ctrl-C: %v; after one Esc: %v; after two: %v", ctrlC, oneEsc, twoEsc)
	if ctrlC || !oneEsc || twoEsc {
		t.Errorf("Ctrl-C kept the text: %v, one Esc: %v, two Esc: %v; screen after Ctrl-C:\n%s\nnow:\n%s",
			ctrlC, oneEsc, twoEsc, afterCtrlC, l.tm.capture(l.pane))
	}
	// Clear whatever is left: Ctrl-U.
	l.tm.must("send-keys", "-t", l.pane, "C-u")
	time.Sleep(300 * time.Millisecond)

	// Lines and their Enter in one write (tmux's send-keys writes its
	// keys so): what is submitted.
	oneWrite := func(text string) []string {
		at := time.Now()
		l.tm.must("send-keys", "-t", l.pane, "-l", text)
		time.Sleep(2 * time.Second)
		got := promptsSince(at)
		if len(got) > 0 {
			idleAgain(at)
		} else {
			// Ctrl-C empties the box (measured above); past the time in
			// which a second one would end claude.
			l.tm.must("send-keys", "-t", l.pane, "C-c")
			time.Sleep(2 * time.Second)
		}
		return got
	}
	// A write of fewer than 64 characters is typing: each Enter in it
	// submits. One of 64 or more is a paste: its Enters are newlines.
	x62, x63 := strings.Repeat("x", 62), strings.Repeat("x", 63)
	for _, tc := range []struct {
		write string
		want  []string
	}{
		{"hi\r", []string{"hi"}},
		{"a line and its enter in one write\r", []string{"a line and its enter in one write"}},
		{"first of two lines\rsecond of two lines\r", []string{"first of two lines", "second of two lines"}},
		{x62 + "\r", []string{x62}},
		{strings.Repeat("é", 40) + "\r", []string{strings.Repeat("é", 40)}}, // characters, not bytes
		{x63 + "\r", nil},
		{strings.Repeat("a", 30) + "\r" + strings.Repeat("b", 40) + "\r", nil},
	} {
		got := oneWrite(tc.write)
		t.Logf("one write of %d characters: submitted %q", len([]rune(tc.write)), got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("one write of %q submitted %q, want %q", tc.write, got, tc.want)
		}
	}

	// A newline in the input box: a backslash before Enter, Alt-Enter
	// (ESC and Enter), Ctrl-J.
	newline := func(keys ...[]string) []string {
		at := time.Now()
		l.tm.must("send-keys", "-t", l.pane, "-l", "upper half")
		time.Sleep(300 * time.Millisecond)
		for _, k := range keys {
			l.tm.must(append([]string{"send-keys", "-t", l.pane}, k...)...)
			time.Sleep(300 * time.Millisecond)
		}
		l.tm.must("send-keys", "-t", l.pane, "-l", "lower half")
		time.Sleep(300 * time.Millisecond)
		l.tm.must("send-keys", "-t", l.pane, "Enter")
		time.Sleep(2 * time.Second)
		got := promptsSince(at)
		if len(got) > 0 {
			idleAgain(at)
		}
		return got
	}
	backslash := newline([]string{"-l", "\\"}, []string{"Enter"})
	altEnter := newline([]string{"M-Enter"})
	ctrlJ := newline([]string{"C-j"})
	t.Logf("submitted: backslash-Enter %q, Alt-Enter %q, Ctrl-J %q", backslash, altEnter, ctrlJ)
	for _, got := range [][]string{backslash, altEnter, ctrlJ} {
		if !slices.Equal(got, []string{"upper half\nlower half"}) {
			t.Errorf("a newline in the input box: submitted %q", got)
		}
	}
}
