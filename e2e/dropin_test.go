package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/testutil/fakeapi"
	"github.com/superclaude/superclaude/state"
)

// TestInstalledAsClaudeSupervisesTheRealOne: the drop-in way to install a
// wrapper is under the wrapped program's name, ahead of it on PATH, so
// that every `claude` anyone types is supervised. superclaude then looks
// up claude and finds itself; it passes over itself and runs the next
// claude on PATH. Before, `claude --version` exec'd itself for ever.
// Typed in a fresh pane: `claude --version` prints the real version, and
// `claude` runs the real CLI under one supervisor, which binds its
// conversation and answers a prompt.
func TestInstalledAsClaudeSupervisesTheRealOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	front := filepath.Join(w.tmp, "front")
	if err := os.Mkdir(front, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.superclaude, filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	w.setEnv("PATH=" + front + ":" + filepath.Join(w.tmp, "bin") + ":" + os.Getenv("PATH"))
	version := exec.Command(w.claudeAt, "--version")
	version.Env = w.env
	want, err := version.Output()
	if err != nil {
		t.Fatalf("claude --version: %v", err)
	}
	tm := w.tmux()
	pane := tm.pane("dropin", "main", "")

	tm.send(pane, "echo BEGIN; claude --version; echo END=$?")
	m := regexp.MustCompile(`(?ms)^BEGIN\n(.*?)^END=(\d+)`).FindStringSubmatch(tm.waitMatch(pane, regexp.MustCompile(`(?ms)^BEGIN\n.*?^END=\d+`)))
	if strings.TrimSpace(m[1]) != strings.TrimSpace(string(want)) || m[2] != "0" {
		t.Fatalf("claude --version through superclaude printed %q and exited %s; want %q and 0", m[1], m[2], want)
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
	w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	if code, _ := tm.exitAndStty(pane); code != 0 {
		t.Errorf("claude (superclaude) exited %d, want 0", code)
	}
	if left := leftovers(sup); len(left) != 0 {
		t.Errorf("processes left behind: %s", fmt.Sprint(left))
	}
}
