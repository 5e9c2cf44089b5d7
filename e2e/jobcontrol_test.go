package e2e

import (
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// TestCtrlZSuspendsClaudeInTmux is issue 9's "Ctrl-Z doesn't suspend" with
// the real CLI: under superclaude claude led its own pty session, its
// process group was orphaned, and it printed "suspended" but kept running
// with the terminal raw. Now, in a pane's bash, C-z leaves a stopped job
// (exit status 148, as plain claude's) on a cooked terminal; `fg` brings
// claude's prompt back and it answers a new prompt; /exit ends superclaude
// with 0.
func TestCtrlZSuspendsClaudeInTmux(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("jc", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	tm.waitScreen(pane, "❯")

	tm.must("send-keys", "-t", pane, "C-z")
	tm.waitScreen(pane, "Stopped")
	screen := tm.waitScreen(pane, "suspended") // claude's own message
	code, stty := tm.exitAndStty(pane)
	if code != 148 {
		t.Errorf("the shell saw the job end with %d, want 148 (stopped by SIGTSTP)", code)
	}
	if bad := cooked(stty); len(bad) != 0 {
		t.Fatalf("the shell got a terminal that is not cooked: %v missing from %q\n%s", bad, stty, screen)
	}
	if !proc.Alive(sup) {
		t.Fatal("superclaude is gone; it should be stopped")
	}

	tm.send(pane, "clear; fg")
	w.until("claude's prompt to come back after fg", func() bool {
		s := tm.capture(pane)
		return strings.Contains(s, "❯") && !strings.Contains(s, "EXIT=148")
	})
	w.api.Push(fakeapi.Text("pong-after-fg"))
	tm.typeLine(pane, "ping after fg")
	tm.waitScreen(pane, "pong-after-fg")

	tm.typeLine(pane, "/exit")
	w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	code, stty = tm.exitAndStty(pane)
	if code != 0 {
		t.Errorf("superclaude exited %d, want claude's 0", code)
	}
	if bad := cooked(stty); len(bad) != 0 {
		t.Errorf("the terminal is not cooked after exit: %v missing from %q", bad, stty)
	}
}
