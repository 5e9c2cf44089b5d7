package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// S1: a user types `superclaude` in a fresh pane, sends a prompt, reads the
// reply and types /exit. superclaude exits 0 as claude did, the shell's
// terminal is cooked again, and nothing superclaude started or made is
// left: no process, no control socket, no launch directory, and no
// sessions/ directory in a project that had none.
func TestS1StartPromptReplyExit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.RemoveAll(w.sessions) // a project without sessions/
	tm := w.tmux()
	pane := tm.pane("s1", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the first status line to bind the conversation", func(st *state.State) bool { return st.SessionID != "" })

	w.api.Push(fakeapi.Text("hello from the fake model"))
	tm.typeLine(pane, "say hello")
	if _, ok := w.api.WaitFor(wait, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && strings.Contains(r.LastUserText(), "say hello")
	}); !ok {
		t.Fatal("the prompt never reached the API")
	}
	tm.waitScreen(pane, "hello from the fake model")

	tm.typeLine(pane, "/exit")
	tm.waitScreen(pane, "Resume this session with")
	// Typed only once superclaude is gone: its input pump still reads the
	// terminal until it exits (see the closing note of issue 8).
	w.until("superclaude to be gone", func() bool { return !proc.Alive(sup) })
	code, stty := tm.exitAndStty(pane)
	if code != 0 {
		t.Errorf("superclaude exited %d, want claude's 0", code)
	}
	if bad := cooked(stty); len(bad) != 0 {
		t.Errorf("the terminal is not cooked after exit: %v missing from %q", bad, stty)
	}
	if left := leftovers(sup); len(left) != 0 {
		t.Errorf("processes left behind: %+v", left)
	}
	for _, leftover := range []string{
		filepath.Join(w.tmp, "superclaude", strconv.Itoa(sup.PID)+".sock"),
		filepath.Join(w.tmp, "superclaude", strconv.Itoa(sup.PID)+".launch"),
		filepath.Join(w.project, "sessions"),
	} {
		if _, err := os.Lstat(leftover); err == nil {
			t.Errorf("%s was left behind", leftover)
		}
	}
	// The supervisor's own session lives in the user's sessions directory.
	user, err := state.Open(filepath.Join(w.state, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	list, _ := user.List()
	if len(list) != 1 || !list[0].State.Auto || list[0].State.SessionID == "" {
		t.Fatalf("the user's sessions: %+v", list)
	}
}
