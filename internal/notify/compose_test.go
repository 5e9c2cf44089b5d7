package notify

import (
	"strings"
	"testing"
)

// Regression: a notification's body named an unlabelled pane by its
// whole identity, "pane %0@/tmp/tmux-0/newuser@1796168697": the socket
// path and the server's start time are superclaude's, not the person's.
// The body shows the pane as +status does; the event keeps it whole.
func TestComposeShowsThePaneAsStatusDoes(t *testing.T) {
	n := Compose([]Event{
		{Kind: NeedsInput, Session: "s1", Host: "box", Pane: "%0@/tmp/tmux-0/newuser@1796168697", Want: "answer it"},
		{Kind: NeedsInput, Session: "s2", Host: "box", Pane: "work:main:SDK", Want: "answer it"},
	})
	for _, want := range []string{"s1 on box (pane %0): answer it", "s2 on box (pane work:main:SDK): answer it"} {
		if !strings.Contains(n.Body, want) {
			t.Errorf("body %q does not say %q", n.Body, want)
		}
	}
	if strings.Contains(n.Body, "/tmp/tmux-0") || strings.Contains(n.Body, "1796168697") {
		t.Errorf("body %q carries the pane's socket or start time", n.Body)
	}
	if n.Events[0].Pane != "%0@/tmp/tmux-0/newuser@1796168697" {
		t.Errorf("the event lost the pane's identity: %q", n.Events[0].Pane)
	}
}
