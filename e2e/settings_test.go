package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// The user's own settings: a hook in their settings.json and a hook and a
// status line in their own --settings file all still run under
// superclaude (claude honours only one --settings and one status line, so
// superclaude merges the user's file into its own and runs the user's
// status line beside its own), and neither file is changed.
func TestUsersOwnSettingsStillRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	marks := filepath.Join(w.tmp, "marks")
	os.MkdirAll(marks, 0o700)
	touch := func(name string) string { return "touch " + filepath.Join(marks, name) }
	userSettings := filepath.Join(w.config, "settings.json")
	w.writeJSON(userSettings, map[string]any{
		"permissions": map[string]any{"defaultMode": "default", "allow": []string{"Bash"}},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
			"hooks": []any{map[string]any{"type": "command", "command": touch("settings-json-hook")}}}}},
	})
	ownFile := filepath.Join(w.project, "my-settings.json")
	w.writeJSON(ownFile, map[string]any{
		"statusLine": map[string]any{"type": "command", "command": touch("own-statusline") + "; echo MY-OWN-LINE"},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
			"hooks": []any{map[string]any{"type": "command", "command": touch("own-settings-hook")}}}}},
	})
	before := map[string][]byte{}
	for _, f := range []string{userSettings, ownFile} {
		before[f], _ = os.ReadFile(f)
	}

	tm := w.tmux()
	pane := tm.pane("settings", "main", "")
	tm.send(pane, "superclaude --settings my-settings.json")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "superclaude's status line to bind", func(st *state.State) bool { return st.SessionID != "" })
	tm.waitScreen(pane, "MY-OWN-LINE")
	if tr := toolResult(t, w, tm, pane, "echo hooked"); tr.IsError {
		t.Fatalf("the tool failed: %+v", tr)
	}
	for _, m := range []string{"settings-json-hook", "own-settings-hook", "own-statusline"} {
		if _, err := os.Stat(filepath.Join(marks, m)); err != nil {
			t.Errorf("the user's %s did not run", m)
		}
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	for f, b := range before {
		if after, _ := os.ReadFile(f); !bytes.Equal(after, b) {
			t.Errorf("%s changed:\n%s\n→\n%s", f, b, after)
		}
	}
}
