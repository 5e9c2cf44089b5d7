package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// agentFleet is a fleet of two panes, A and B, in one window w, whose agent
// is another CLI than claude: the fleet file, and its +up and +down on the
// test's tmux server.
type agentFleet struct {
	w    *world
	tm   *tmuxServer
	name string
	file string
	// ready waits until the agent in a pane waits at its prompt.
	ready func(pane string)
}

func newAgentFleet(w *world, tm *tmuxServer, name, agent string, ready func(pane string)) *agentFleet {
	f := &agentFleet{w: w, tm: tm, name: name, file: filepath.Join(w.project, "fleet.toml"), ready: ready}
	os.WriteFile(f.file, []byte(`name = "`+name+`"
dir = "."
sessions = "sessions"
agent = "`+agent+`"

[[window]]
name = "w"

  [[window.pane]]
  label = "A"

  [[window.pane]]
  label = "B"
`), 0o600)
	return f
}

// panes are the fleet's tmux panes, by label.
func (f *agentFleet) panes() map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(f.tm.must("list-panes", "-s", "-t", "="+f.name, "-F", "#{pane_id} #{@pane_label}"), "\n") {
		id, label, _ := strings.Cut(line, " ")
		out[label] = id
	}
	return out
}

// up runs +up and returns the panes by label once each agent is ready.
func (f *agentFleet) up() map[string]string {
	f.w.t.Helper()
	if out, err := f.w.sc("+up", "--tmux-socket", f.tm.sock, f.file); err != nil {
		f.w.t.Fatalf("+up: %v\n%s", err, out)
	}
	p := f.panes()
	for _, id := range p {
		f.ready(id)
	}
	return p
}

// down runs +down.
func (f *agentFleet) down() {
	f.w.t.Helper()
	if out, err := f.w.sc("+down", "--tmux-socket", f.tm.sock, f.file); err != nil {
		f.w.t.Fatalf("+down: %v\n%s", err, out)
	}
}

// bound waits until each pane's running supervisor has bound a
// conversation, and returns the sessions by label.
func (f *agentFleet) bound() map[string]*state.State {
	f.w.t.Helper()
	got := map[string]*state.State{}
	f.w.until("each pane to bind its own conversation", func() bool {
		sessions, _ := f.w.store().List()
		for _, s := range sessions {
			if s.State.SessionID != "" && proc.Alive(state.Owner(s.State)) && s.State.Lifecycle == state.Active {
				got[s.State.FleetPaneID[strings.LastIndex(s.State.FleetPaneID, ":")+1:]] = s.State
			}
		}
		return got["A"] != nil && got["B"] != nil
	})
	return got
}

// downUpResumes runs +down, checks that no supervisor of the panes' sessions
// outlived it or left anything, runs +up again, and checks that the panes
// were started with resume the ids of the sessions of before: it returns
// the panes.
func (f *agentFleet) downUpResumes(before map[string]*state.State, resume string) map[string]string {
	f.w.t.Helper()
	f.down()
	for _, st := range before {
		sup := state.Owner(st)
		if proc.Alive(sup) {
			f.w.t.Errorf("supervisor %d outlived +down", sup.PID)
		}
		if left := leftovers(sup); len(left) != 0 {
			f.w.t.Errorf("supervisor %d left %+v", sup.PID, left)
		}
	}
	starts := len(f.w.agentStarts())
	p := f.up()
	var resumed []string
	for _, args := range f.w.agentStarts()[starts:] {
		if i := slices.Index(args, resume); i >= 0 && i+1 < len(args) {
			resumed = append(resumed, args[i+1])
		}
	}
	slices.Sort(resumed)
	want := []string{before["A"].SessionID, before["B"].SessionID}
	slices.Sort(want)
	if !slices.Equal(resumed, want) {
		f.w.t.Fatalf("after +up again the panes resumed %q, want %q (starts %q)", resumed, want, f.w.agentStarts()[starts:])
	}
	return p
}
