package e2e

import (
	"testing"

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

	tm.suspendAndResume(pane, sup, "suspended", "❯") // "suspended": claude's own message
	w.api.Push(fakeapi.Text("pong-after-fg"))
	tm.typeLine(pane, "ping after fg")
	tm.waitScreen(pane, "pong-after-fg")

	tm.typeLine(pane, "/exit")
	tm.exitsCooked(pane, sup, 0)
}
