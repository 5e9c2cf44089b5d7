package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// sc runs a superclaude command of the user's, in the project, with the
// world's environment, and returns its combined output.
func (w *world) sc(args ...string) (string, error) {
	cmd := exec.Command(w.superclaude, args...)
	cmd.Dir = w.project
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Fleet: `+up` a two-pane fleet of real claude; each pane binds its own
// conversation; `+down` leaves nothing behind; `+up` again resumes each
// pane's own conversation.
func TestFleetUpDownUpResumesEachPane(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "fl"
dir = "."
sessions = "sessions"

[[window]]
name = "w"

  [[window.pane]]
  label = "A"

  [[window.pane]]
  label = "B"
`), 0o600)

	up := func() map[string]*state.State {
		t.Helper()
		if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
			t.Fatalf("+up: %v\n%s", err, out)
		}
		got := map[string]*state.State{}
		w.until("each pane to bind its own conversation", func() bool {
			sessions, _ := w.store().List()
			for _, s := range sessions {
				if s.State.SessionID != "" && proc.Alive(state.Owner(s.State)) && s.State.Lifecycle == state.Active {
					got[s.State.FleetPaneID] = s.State
				}
			}
			return got["fl:w:A"] != nil && got["fl:w:B"] != nil
		})
		return got
	}
	first := up()
	convA, convB := first["fl:w:A"].SessionID, first["fl:w:B"].SessionID
	// A conversation claude has no message of cannot be resumed ("No
	// conversation found"): say something in each pane.
	for _, line := range strings.Split(tm.must("list-panes", "-s", "-t", "=fl", "-F", "#{pane_id} #{@pane_label}"), "\n") {
		id, label, _ := strings.Cut(line, " ")
		mark := w.api.Mark()
		tm.typeLine(id, "hello from "+label)
		if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
			return strings.Contains(r.LastUserText(), "hello from "+label)
		}); !ok {
			t.Fatalf("pane %s: the prompt never reached the API", label)
		}
	}
	if convA == convB {
		t.Fatalf("two panes share conversation %s", convA)
	}
	sups := []proc.Identity{state.Owner(first["fl:w:A"]), state.Owner(first["fl:w:B"])}

	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
	for _, sup := range sups {
		if proc.Alive(sup) {
			t.Errorf("supervisor %d outlived +down", sup.PID)
		}
		if left := leftovers(sup); len(left) != 0 {
			t.Errorf("supervisor %d left %+v", sup.PID, left)
		}
	}
	if _, err := tm.run("has-session", "-t", "=fl"); err == nil {
		t.Error("the tmux session outlived +down")
	}

	starts := len(w.agentStarts())
	second := up()
	if second["fl:w:A"].SessionID != convA || second["fl:w:B"].SessionID != convB {
		t.Fatalf("after +up again: A %s (want %s), B %s (want %s)",
			second["fl:w:A"].SessionID, convA, second["fl:w:B"].SessionID, convB)
	}
	resumed := 0
	for _, args := range w.agentStarts()[starts:] {
		if i := slices.Index(args, "--resume"); i >= 0 && (args[i+1] == convA || args[i+1] == convB) {
			resumed++
		}
	}
	if resumed != 2 {
		t.Fatalf("%d panes resumed with --resume, want 2: %q", resumed, w.agentStarts()[starts:])
	}
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}
