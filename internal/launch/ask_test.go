package launch

import (
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/supervise"
)

// Regression, issue 19: the resume question (Resume / New / Abort on one
// key) took the first key of a prompt the person started typing: "run: …"
// chose Resume, and "un: …" went to claude as the prompt. Only its keys,
// each typed on its own, answer it; anything else typed is held for the
// agent that then starts, the key it began with included. On a real pty:
// the question reads the terminal as the person's keys reach it.
func TestTheResumeQuestionTakesOnlyItsKeys(t *testing.T) {
	type step struct {
		text  string
		pause time.Duration // before the next step
	}
	typed := func(text string) []step { // a person typing: a key at a time
		var out []step
		for _, r := range text {
			out = append(out, step{string(r), 60 * time.Millisecond})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		keys  []step
		want  supervise.Choice
		held  string
		after time.Duration // at least this long to answer
	}{
		{"n on its own", []step{{"n", 0}}, supervise.ChooseNew, "", keyQuiet},
		{"Enter on its own resumes", []step{{"\r", 0}}, supervise.ChooseResume, "", keyQuiet},
		{"Ctrl-C aborts at once", []step{{"\x03", 0}}, supervise.ChooseAbort, "", 0},
		{"Esc on its own aborts", []step{{"\x1b", 0}}, supervise.ChooseAbort, "", keyQuiet},
		{"a prompt typed at once, then n", []step{{"run: hello\r", keyQuiet + 200*time.Millisecond}, {"n", 0}},
			supervise.ChooseNew, "run: hello\r", keyQuiet},
		{"a prompt typed key by key, then a", append(typed("run: go\r"), step{"", keyQuiet + 200*time.Millisecond}, step{"a", 0}),
			supervise.ChooseAbort, "run: go\r", keyQuiet},
		{"a prompt begun, not finished: n belongs to it", append(typed("run"), step{"", keyQuiet + 200*time.Millisecond}, step{"n", 0}),
			supervise.ChooseResume, "runn", 0},
		// Regression (CI, 2026-12-02): under load the Enter that ended a
		// prompt and the n after it came in one read; the question held
		// both and resumed at its timeout.
		{"a prompt, then its Enter and n read together", []step{{"run: hello", 100 * time.Millisecond}, {"\rn", 0}},
			supervise.ChooseNew, "run: hello\r", keyQuiet},
		{"an arrow key is no Esc", []step{{"\x1b[A", 0}}, supervise.ChooseResume, "\x1b[A", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			master, slave, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer master.Close()
			defer slave.Close()
			var mu sync.Mutex
			var held []byte
			hold := func(p []byte) { mu.Lock(); held = append(held, p...); mu.Unlock() }
			got := make(chan supervise.Choice, 1)
			start := time.Now()
			go func() { got <- readChoice(slave, 2*time.Second, hold) }()
			time.Sleep(50 * time.Millisecond) // the question is up, raw
			for _, s := range tc.keys {
				if s.text != "" {
					master.Write([]byte(s.text))
				}
				time.Sleep(s.pause)
			}
			var c supervise.Choice
			select {
			case c = <-got:
			case <-time.After(5 * time.Second):
				t.Fatal("no answer")
			}
			mu.Lock()
			defer mu.Unlock()
			if c != tc.want || string(held) != tc.held {
				t.Errorf("chose %v, held %q; want %v, %q", c, held, tc.want, tc.held)
			}
			if took := time.Since(start); took < tc.after {
				t.Errorf("answered after %v: a key is no answer until %v pass without more", took, tc.after)
			}
		})
	}
}
