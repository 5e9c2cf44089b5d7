package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Lab: a line typed into claude as its first prompt — the one given on
// its command line, as superclaude gives a fresh claude its continuation
// prompt — starts, the way superclaude types what the person typed
// during a restart: the text, 0.3 s, Enter; at the idle claude says as it
// starts (before it takes its first prompt, which is when superclaude's
// typeahead gives it today) or once it is busy; with the first reply
// streaming on ("held") or at once ("quick"). The line is always sent in
// the end, but its UserPromptSubmit does not always run at once, as it
// does for a line queued in a later turn (docs/claude-code-limits.md §7):
// in some runs, typed at idle or at busy, claude shows it "Queued" and
// runs the hook only when the first turn ends. The lab asserts the line
// is sent, and logs the rest (RESULT).
func TestLabTypingAsTheFirstPromptStarts(t *testing.T) {
	t.Parallel()
	for _, held := range []bool{true, false} {
		for _, at := range []string{"busy", "idle"} {
			name := "quick"
			if held {
				name = "held"
			}
			t.Run(name+"/at-"+at, func(t *testing.T) {
				t.Parallel()
				labTypeAsFirstPromptStarts(t, held, at)
			})
		}
	}
}

func labTypeAsFirstPromptStarts(t *testing.T, held bool, at string) {
	w := newWorld(t)
	l := newLab(t, w)
	hold := make(chan struct{})
	if held {
		w.api.Push(fakeapi.Reply{Content: fakeapi.Text("the first reply").Content, Hold: hold})
	}
	l.tm = w.tmux()
	l.pane = l.tm.pane("lab", "main", "")
	l.sessions = watchSessions(t, w.config+"/sessions")
	l.tm.send(l.pane, "claude --settings "+l.settings+" 'the first prompt'; echo CLAUDE-EXIT=$?")
	l.sessions.wait(at+" as claude starts", func(s sessionSample) bool { return s.Status == at })
	const typed = "a line typed as the first prompt starts"
	l.tm.must("send-keys", "-t", l.pane, "-l", typed)
	time.Sleep(300 * time.Millisecond)
	enter := time.Now()
	l.tm.must("send-keys", "-t", l.pane, "Enter")
	took := func() bool {
		for _, p := range l.payloads("hook-UserPromptSubmit") {
			if p.Str("prompt") == typed {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(3 * time.Second)
	for !took() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	atOnce := took()
	screen := l.tm.capture(l.pane)
	if held {
		close(hold)
	}
	deadline = time.Now().Add(10 * time.Second)
	for !took() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	busy := l.sessions.wait("busy with the first prompt", func(s sessionSample) bool { return s.Status == "busy" })
	var statuses []string
	for _, s := range l.sessions.all() {
		statuses = append(statuses, s.Status+"@"+s.At.Sub(busy.At).Round(time.Millisecond).String())
	}
	queued := strings.Contains(screen, "Queued")
	t.Logf("RESULT hook at once: %v; queued shown: %v; taken in the end: %v; Enter at +%v after busy; statuses %v",
		atOnce, queued, took(), enter.Sub(busy.At).Round(time.Millisecond), statuses)
	if !took() {
		t.Errorf("the line was never sent; screen as the first turn streamed:\n%s\nnow:\n%s", screen, l.tm.capture(l.pane))
	}
}
