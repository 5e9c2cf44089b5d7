package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// lockedBuffer is what a terminal showed, written by a copying goroutine
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Issue 19, a fleet from inside tmux, as the README's own example has it
// (socket = "…", a server of the fleet's own), run by a person whose
// terminal is a client of their everyday tmux:
//
//   - `+up FILE --attach`, typed in a pane of the everyday tmux, nests a
//     client of the fleet's server in that pane and says which keys
//     detach it; those keys, typed on the person's terminal, bring the
//     shell back;
//   - `+down NAME` (no file, no socket) finds the fleet's server from its
//     record;
//   - Ctrl-C during that +down, while a pane's claude is in the middle of
//     a reply, says what is still up and how to finish; `+down NAME`
//     again finishes the job, and nothing of the fleet is left.
func TestFleetOnItsOwnServerFromInsideTmux(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// tmux -L names live in $TMUX_TMPDIR: the world's own.
	w.env = append(w.env, "TMUX_TMPDIR="+w.tmp)
	outer := w.tmux() // the person's everyday tmux
	me := outer.pane("me", "main", "")
	fleetServer := func(args ...string) (string, error) {
		cmd := exec.Command("tmux", append([]string{"-L", "e2efleet"}, args...)...)
		cmd.Env = w.env
		out, err := cmd.CombinedOutput()
		return strings.TrimRight(string(out), "\n"), err
	}
	t.Cleanup(func() { fleetServer("kill-server") })

	// The person's terminal: a client of the everyday tmux, on a pty.
	client := exec.Command("tmux", "-S", outer.sock, "attach-session", "-t", "=me")
	client.Env = w.env
	term, err := pty.StartWithSize(client, &pty.Winsize{Rows: 45, Cols: 160})
	if err != nil {
		t.Fatal(err)
	}
	var screen lockedBuffer
	go io.Copy(&screen, term)
	t.Cleanup(func() {
		client.Process.Kill()
		client.Wait()
		term.Close()
	})
	w.until("the person's tmux client", func() bool { return outer.must("list-clients", "-F", "#{client_session}") == "me" })

	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "fl"
dir = "."
sessions = "sessions"
socket = "e2efleet"

[[window]]
name = "w"

  [[window.pane]]
  label = "A"

  [[window.pane]]
  label = "B"
`), 0o600)

	// +up --attach in the person's pane.
	outer.send(me, "superclaude +up fleet.toml --attach")
	myTTY := outer.must("display-message", "-p", "-t", me, "#{pane_tty}")
	w.until("a client of the fleet's server in the person's pane", func() bool {
		out, _ := fleetServer("list-clients", "-F", "#{client_tty} #{client_session}")
		return out == myTTY+" fl"
	})
	w.until("the keys that detach it, on its status line", func() bool {
		return strings.Contains(outer.capture(me), "C-b C-b d detaches it and brings you back")
	})
	live := map[string]*state.State{}
	w.until("each pane's claude to bind its conversation", func() bool {
		sessions, _ := w.store().List()
		for _, s := range sessions {
			if s.State.SessionID != "" && proc.Alive(state.Owner(s.State)) {
				live[s.State.FleetPaneID] = s.State
			}
		}
		return live["fl:w:A"] != nil && live["fl:w:B"] != nil
	})

	// The keys the hint names, typed on the person's terminal: the
	// everyday tmux sends its prefix through, the fleet's client detaches.
	term.Write([]byte("\x02\x02d"))
	w.until("the nested client to detach", func() bool {
		out, _ := fleetServer("list-clients")
		return out == ""
	})
	outer.waitScreen(me, "[detached")

	// Pane A's claude is in the middle of a reply when +down comes.
	paneA, err := fleetServer("list-panes", "-s", "-t", "=fl", "-F", "#{pane_id}", "-f", "#{==:#{@pane_label},A}")
	if err != nil || paneA == "" {
		t.Fatalf("pane A: %v %q", err, paneA)
	}
	hold := make(chan struct{})
	released := false
	release := func() {
		if !released {
			released = true
			close(hold)
		}
	}
	t.Cleanup(release)
	w.api.Push(fakeapi.Reply{Content: fakeapi.Text("a long answer, at last").Content, Hold: hold})
	mark := w.api.Mark()
	fleet := &tmuxServer{w: w, sock: strings.TrimSpace(mustOut(fleetServer("display-message", "-p", "-t", "=fl:", "#{socket_path}")))}
	fleet.typeLine(paneA, "think for a while")
	if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "think for a while") }); !ok {
		t.Fatal("pane A's prompt never reached the API")
	}
	w.until("pane A's claude to be busy", func() bool {
		st, err := w.store().Load(sessionName(t, w, "fl:w:A"))
		return err == nil && st.AgentStatus == "busy"
	})

	// +down fl, by name alone, from the person's pane; Ctrl-C once pane B
	// (idle) is down and pane A waits for its reply.
	supB := state.Owner(live["fl:w:B"])
	outer.send(me, "superclaude +down fl; echo DOWN1=$?")
	w.until("pane B's supervisor to stop", func() bool { return !proc.Alive(supB) })
	time.Sleep(time.Second)
	outer.must("send-keys", "-t", me, "C-c")
	got := outer.waitMatch(me, regexp.MustCompile(`(?s)superclaude \+down fl; echo DOWN1=\$\?\n.*DOWN1=\d+`))
	for _, want := range []string{"+down fl was interrupted: 1 supervisor of the fleet is still running (pane A)",
		"The tmux session fl stays up until +down finishes", "To finish: superclaude +down fl", "DOWN1=130"} {
		if !strings.Contains(got, want) {
			t.Errorf("the interrupted +down does not say %q; screen:\n%s", want, got)
		}
	}
	if _, err := fleetServer("has-session", "-t", "=fl"); err != nil {
		t.Fatal("the fleet's session went although +down was interrupted")
	}

	// +down again finishes: the reply ends, pane A's supervisor stops.
	outer.send(me, "superclaude +down fl; echo DOWN2=$?")
	time.Sleep(time.Second)
	release()
	got = outer.waitMatch(me, regexp.MustCompile(`(?s)superclaude \+down fl; echo DOWN2=\$\?\n.*DOWN2=\d+`))
	if !strings.Contains(got, "fleet fl is down") || !strings.Contains(got, "DOWN2=0") {
		t.Fatalf("+down again:\n%s", got)
	}
	if _, err := fleetServer("has-session", "-t", "=fl"); err == nil {
		t.Error("the fleet's session outlived +down")
	}
	for _, st := range live {
		if sup := state.Owner(st); proc.Alive(sup) {
			t.Errorf("supervisor %d outlived +down", sup.PID)
		} else if left := leftovers(sup); len(left) != 0 {
			t.Errorf("supervisor %d left %+v", sup.PID, left)
		}
	}
	if b, err := os.ReadFile(filepath.Join(w.state, "fleets", "fl.json")); err != nil || !strings.Contains(string(b), `"down":`) {
		t.Errorf("+down did not mark the fleet's record down: %v %s", err, b)
	}
	t.Logf("the person's pane:\n%s", outer.capture(me))
}

func mustOut(out string, err error) string {
	if err != nil {
		panic(err)
	}
	return out
}

// sessionName is the name of the session of pane.
func sessionName(t *testing.T, w *world, pane string) string {
	t.Helper()
	sessions, _ := w.store().List()
	for _, s := range sessions {
		if s.State.FleetPaneID == pane {
			return s.Name
		}
	}
	t.Fatalf("no session for pane %s", pane)
	return ""
}
