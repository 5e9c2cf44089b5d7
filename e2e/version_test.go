package e2e

import (
	"strings"
	"testing"
)

// TestVersionIsClaudesOwn: `superclaude --version`, typed in a fresh pane,
// prints exactly what `claude --version` prints and exits as it does. The
// run is handed to claude before most of superclaude has initialised
// (internal/handover); a session activated before it changes nothing, and
// it leaves no session behind.
func TestVersionIsClaudesOwn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	want := w.claudeVersion()
	tm := w.tmux()
	pane := tm.pane("version", "main", "")
	// A session a skill activated, as a user's pane would have one.
	if _, code := tm.runShell(pane, "superclaude +session activate sessions/release-notes release"); code != 0 {
		t.Fatalf("activating a session exited %d", code)
	}
	for _, args := range []string{"--version", "-v", "-V"} {
		if out, code := tm.runShell(pane, "superclaude "+args); strings.TrimSpace(out) != want || code != 0 {
			t.Errorf("superclaude %s printed %q and exited %d; want claude's %q and its exit 0", args, out, code, want)
		}
	}
	if names, _ := w.store().Names(); len(names) != 1 || names[0] != "release-notes" {
		t.Errorf("sessions after --version: %v, want only the skill's", names)
	}
}
