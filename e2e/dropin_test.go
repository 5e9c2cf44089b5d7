package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// TestInstalledAsClaudeSupervisesTheRealOne: the drop-in way to install a
// wrapper is under the wrapped program's name, ahead of it on PATH, so
// that every `claude` anyone types is supervised. superclaude then looks
// up claude and finds itself; it passes over itself and runs the next
// claude on PATH. Before, `claude --version` exec'd itself for ever.
// Typed in a fresh pane: `claude --version` prints the real version,
// `claude -p` answers once through the real CLI, and `claude` runs the real
// CLI under one supervisor, which binds its conversation and answers a
// prompt.
//
// Both ways to install it under claude's name: a link, and a script that
// execs superclaude (a different file, which superclaude tells apart by
// the parent it recorded for its agent).
func TestInstalledAsClaudeSupervisesTheRealOne(t *testing.T) {
	t.Parallel()
	for _, install := range []string{"link", "script"} {
		t.Run(install, func(t *testing.T) {
			t.Parallel()
			installedAsClaude(t, install)
		})
	}
}

func installedAsClaude(t *testing.T, install string) {
	w := newWorld(t)
	front := filepath.Join(w.tmp, "front")
	if err := os.Mkdir(front, 0o700); err != nil {
		t.Fatal(err)
	}
	var err error
	if install == "link" {
		err = os.Symlink(w.superclaude, filepath.Join(front, "claude"))
	} else {
		err = os.WriteFile(filepath.Join(front, "claude"), []byte("#!/bin/sh\nexec "+w.superclaude+" \"$@\"\n"), 0o700)
	}
	if err != nil {
		t.Fatal(err)
	}
	// And an older install, a copy, between it and the real claude: a
	// different file, which steps aside when started as the agent.
	old := filepath.Join(w.tmp, "old")
	data, err := os.ReadFile(w.superclaude)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "claude"), data, 0o700); err != nil {
		t.Fatal(err)
	}
	w.setEnv("PATH=" + front + ":" + old + ":" + filepath.Join(w.tmp, "bin") + ":" + os.Getenv("PATH"))
	want := w.claudeVersion()
	tm := w.tmux()
	pane := tm.pane("dropin-"+install, "main", "")
	if out, code := tm.runShell(pane, "claude --version"); strings.TrimSpace(out) != want || code != 0 {
		t.Fatalf("claude --version through superclaude printed %q and exited %d; want %q and 0", out, code, want)
	}
	w.api.Push(fakeapi.Text("printed through the drop-in"))
	if out, code := tm.runShell(pane, "claude -p hello | cat"); !strings.Contains(out, "printed through the drop-in") || code != 0 {
		t.Fatalf("claude -p through superclaude printed %q and exited %d; want the answer and 0", out, code)
	}

	tm.send(pane, "claude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the real claude's status line to bind its conversation", func(st *state.State) bool { return st.SessionID != "" })
	w.api.Push(fakeapi.Text("hello through the drop-in"))
	tm.typeLine(pane, "say hello")
	tm.waitScreen(pane, "hello through the drop-in")
	socks, _ := filepath.Glob(filepath.Join(w.tmp, "superclaude", "*.sock"))
	if len(socks) != 1 {
		t.Errorf("control sockets %v: want one supervisor, not one stacked on another", socks)
	}

	tm.typeLine(pane, "/exit")
	// The exit hint names the command as it reached superclaude: claude
	// through the link, as typed; through the script, the superclaude it
	// execs (what the script typed). Either runs where it is printed.
	hint := "claude"
	if install == "script" {
		hint = w.superclaude
	}
	screen := tm.waitScreen(pane, "Resume this session with")
	if m := regexp.MustCompile(`(\S*) --resume [0-9a-f-]{36}`).FindStringSubmatch(tm.waitMatch(pane, regexp.MustCompile(`\S* --resume [0-9a-f-]{36}`))); m[1] != hint {
		t.Errorf("the exit hint says %q, want %s --resume:\n%s", m[0], hint, screen)
	}
	w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	if code, _ := tm.exitAndStty(pane); code != 0 {
		t.Errorf("claude (superclaude) exited %d, want 0", code)
	}
	if left := leftovers(sup); len(left) != 0 {
		t.Errorf("processes left behind: %s", fmt.Sprint(left))
	}
}
