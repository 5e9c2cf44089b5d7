package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	claudepkg "github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Turn-gated restart: a restart asked for from another shell while claude
// streams a reply waits until that reply has finished, then happens; +why
// says how long it waited.
func TestRestartWaitsForTheTurnToEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("turn", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" })

	hold := make(chan struct{})
	w.api.Push(fakeapi.Reply{Content: fakeapi.Text("a long answer, at last").Content, Hold: hold})
	mark := w.api.Mark()
	tm.typeLine(pane, "think for a while")
	if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "think for a while") }); !ok {
		t.Fatal("the prompt never reached the API")
	}
	busy := w.session("X", "claude to be busy", func(st *state.State) bool { return st.AgentStatus == "busy" })
	claude := agentPID(t, w)
	starts := len(w.agentStarts())

	out, err := w.sc("+session", "restart", "--session", "X")
	if err != nil || !strings.Contains(out, "in the middle of a turn") {
		t.Fatalf("restart from another shell: %v %s", err, out)
	}
	time.Sleep(2 * time.Second)
	if !proc.Alive(claude) || len(w.agentStarts()) != starts {
		t.Fatal("claude was killed in the middle of its reply")
	}
	close(hold)
	w.until("the restart after the turn", func() bool { return len(w.agentStarts()) > starts })
	if proc.Alive(claude) {
		t.Fatal("the old claude outlived the restart")
	}
	// The reply was finished before the restart: the old conversation's
	// transcript holds it whole.
	if h, err := claudepkg.ReadTranscript(busy.TranscriptPath); err != nil || !slices.Contains(h.Replies, "a long answer, at last") {
		t.Fatalf("the held reply did not finish before the restart: %v %+v", err, h.Replies)
	}
	evs, _ := w.store().Events("X")
	var waited float64
	for _, ev := range evs {
		if ev.Kind == "restart" {
			waited, _ = ev.Detail["waitedMs"].(float64)
		}
	}
	if waited < 2000 {
		t.Fatalf("the restart event says it waited %v ms, want ≥ 2000", waited)
	}
	why, _ := w.sc("+why", "--sessions", w.sessions, "X")
	if !strings.Contains(why, "for the agent to finish its turn") {
		t.Fatalf("+why does not say the restart waited:\n%s", why)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// Needs input: while claude shows a permission dialog, +status --json
// says the session waits for the user's input, and the fleet pane's
// border says so; both clear once the user answers.
func TestNeedsInputWhileAPermissionDialogShows(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("input", "main", "SDK")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })

	// Write is not in the allowed tools: claude asks.
	target := filepath.Join(w.project, "asked.txt")
	w.api.Push(fakeapi.ToolUse("Write", map[string]any{"file_path": target, "content": "hi\n"}), fakeapi.Text("written"))
	tm.typeLine(pane, "write the file")
	needsInput := func() bool {
		out, err := w.sc("+status", "--json", "--sessions", filepath.Join(w.sessions))
		if err != nil {
			return false
		}
		var views []cli.SessionView
		json.Unmarshal([]byte(out), &views)
		for _, v := range views {
			if v.PID == sup.PID && v.State == cli.Running {
				return v.NeedsInput && v.Agent == "waiting"
			}
		}
		return false
	}
	w.until("+status --json to show the session waiting for input", needsInput)
	if opt, _ := tm.run("show-options", "-p", "-q", "-v", "-t", pane, "@superclaude_status"); opt != "needs input" {
		t.Fatalf("the pane is not marked: %q", opt)
	}
	// Answer the dialog: yes. claude says it waits a moment before its
	// dialog reads keys (as with its prompt: typeLine), and an Enter sent
	// in between is lost; so once the dialog shows, and again should it
	// still show a few seconds later.
	tm.waitScreen(pane, "Do you want to create asked.txt?")
	time.Sleep(300 * time.Millisecond)
	tm.must("send-keys", "-t", pane, "Enter")
	answered := time.Now()
	w.until("the mark to clear", func() bool {
		opt, _ := tm.run("show-options", "-p", "-q", "-v", "-t", pane, "@superclaude_status")
		if opt != "" && time.Since(answered) > 5*time.Second && strings.Contains(tm.capture(pane), "Do you want to create asked.txt?") {
			t.Log("the dialog still shows 5 s after Enter: pressing it again")
			tm.must("send-keys", "-t", pane, "Enter")
			answered = time.Now()
		}
		return opt == "" && !needsInput()
	})
	// The mark clears as the dialog is answered; the tool writes a moment
	// later.
	w.until("the answered tool to run", func() bool { _, err := os.Stat(target); return err == nil })
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
