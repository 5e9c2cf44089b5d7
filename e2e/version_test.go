package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestVersionIsClaudesOwn: `superclaude --version`, typed in a fresh pane,
// prints exactly what `claude --version` prints and exits as it does. The
// run is handed to claude before most of superclaude has initialised
// (internal/handover); a session activated and a whole interactive run
// before it must change nothing, and it leaves no session behind.
func TestVersionIsClaudesOwn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cmd := exec.Command(w.claudeAt, "--version")
	cmd.Env = w.env
	want, err := cmd.Output()
	if err != nil || len(strings.TrimSpace(string(want))) == 0 {
		t.Fatalf("claude --version: %v %q", err, want)
	}
	tm := w.tmux()
	pane := tm.pane("version", "main", "")
	// A session a skill activated, as a user's pane would have one.
	tm.send(pane, "superclaude +session activate sessions/release-notes release && echo ACTIVATED")
	tm.waitScreen(pane, "ACTIVATED")
	for i, args := range []string{"--version", "-v"} {
		tm.send(pane, fmt.Sprintf("echo BEGIN%d; superclaude %s; echo END%d=$?", i, args, i))
		m := regexp.MustCompile(fmt.Sprintf(`(?ms)^BEGIN%d\n(.*?)^END%d=(\d+)`, i, i)).
			FindStringSubmatch(tm.waitMatch(pane, regexp.MustCompile(fmt.Sprintf(`(?ms)^BEGIN%d\n.*?^END%d=\d+`, i, i))))
		if strings.TrimSpace(m[1]) != strings.TrimSpace(string(want)) || m[2] != "0" {
			t.Errorf("superclaude %s printed %q and exited %s; want claude's %q and its exit 0", args, m[1], m[2], want)
		}
	}
	if names, _ := w.store().Names(); len(names) != 1 || names[0] != "release-notes" {
		t.Errorf("sessions after --version: %v, want only the skill's", names)
	}
}
