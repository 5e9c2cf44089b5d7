package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeopenai"
)

// A fleet of two Codex panes: `+down` and `+up` again resume each pane's
// own conversation (issue 16: +down/+up started new ones), each with
// `codex resume <its id>`, and the next turn in each pane is on that
// pane's thread.
func TestCodexFleetDownUpResumesEachPane(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "cf"
dir = "."
sessions = "sessions"
agent = "codex"

[[window]]
name = "w"

  [[window.pane]]
  label = "A"

  [[window.pane]]
  label = "B"
`), 0o600)
	panes := func() map[string]string {
		out := map[string]string{}
		for _, line := range strings.Split(tm.must("list-panes", "-s", "-t", "=cf", "-F", "#{pane_id} #{@pane_label}"), "\n") {
			id, label, _ := strings.Cut(line, " ")
			out[label] = id
		}
		return out
	}
	up := func() map[string]string {
		t.Helper()
		if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
			t.Fatalf("+up: %v\n%s", err, out)
		}
		p := panes()
		for _, id := range p {
			tm.codexReady(id)
		}
		return p
	}
	bound := func() map[string]*state.State {
		got := map[string]*state.State{}
		w.until("each pane to bind its own conversation", func() bool {
			sessions, _ := w.store().List()
			for _, s := range sessions {
				if s.State.SessionID != "" && proc.Alive(state.Owner(s.State)) && s.State.Lifecycle == state.Active {
					got[s.State.FleetPaneID] = s.State
				}
			}
			return got["cf:w:A"] != nil && got["cf:w:B"] != nil
		})
		return got
	}
	threads := map[string]string{}
	p := up()
	for _, label := range []string{"A", "B"} {
		threads[label] = w.turn(tm, p[label], "hello from "+label).ThreadID
	}
	first := bound()
	if first["cf:w:A"].SessionID != threads["A"] || first["cf:w:B"].SessionID != threads["B"] || threads["A"] == threads["B"] {
		t.Fatalf("bound A %s, B %s; codex's threads A %s, B %s", first["cf:w:A"].SessionID, first["cf:w:B"].SessionID, threads["A"], threads["B"])
	}
	sups := []proc.Identity{state.Owner(first["cf:w:A"]), state.Owner(first["cf:w:B"])}
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

	starts := len(w.agentStarts())
	p = up()
	var resumed []string
	for _, args := range w.agentStarts()[starts:] {
		if i := slices.Index(args, "resume"); i >= 0 && i+1 < len(args) {
			resumed = append(resumed, args[i+1])
		}
	}
	slices.Sort(resumed)
	want := []string{threads["A"], threads["B"]}
	slices.Sort(want)
	if !slices.Equal(resumed, want) {
		t.Fatalf("after +up again the panes resumed %q, want %q (starts %q)", resumed, want, w.agentStarts()[starts:])
	}
	for _, label := range []string{"A", "B"} {
		if got := w.turn(tm, p[label], "again from "+label).ThreadID; got != threads[label] {
			t.Errorf("pane %s runs thread %s after +up, want its own %s", label, got, threads[label])
		}
	}
	w.openai.Push(fakeopenai.Text("bye"))
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}
