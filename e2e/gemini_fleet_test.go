package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// A fleet of two Gemini CLI panes: `+down` and `+up` again resume each
// pane's own conversation, each with `--resume <its id>`, and the next
// turn in each pane carries that pane's first turn and not the other's.
func TestGeminiFleetDownUpResumesEachPane(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "gf"
dir = "."
sessions = "sessions"
agent = "gemini"

[[window]]
name = "w"

  [[window.pane]]
  label = "A"

  [[window.pane]]
  label = "B"
`), 0o600)
	panes := func() map[string]string {
		out := map[string]string{}
		for _, line := range strings.Split(tm.must("list-panes", "-s", "-t", "=gf", "-F", "#{pane_id} #{@pane_label}"), "\n") {
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
			tm.waitScreen(id, "Type your message")
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
			return got["gf:w:A"] != nil && got["gf:w:B"] != nil
		})
		return got
	}
	p := up()
	for _, label := range []string{"A", "B"} {
		w.turn(tm, p[label], "hello from "+label)
	}
	first := bound()
	ids := map[string]string{"A": first["gf:w:A"].SessionID, "B": first["gf:w:B"].SessionID}
	if ids["A"] == ids["B"] {
		t.Fatalf("both panes bound conversation %s", ids["A"])
	}
	sups := []proc.Identity{state.Owner(first["gf:w:A"]), state.Owner(first["gf:w:B"])}
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
		if i := slices.Index(args, "--resume"); i >= 0 && i+1 < len(args) {
			resumed = append(resumed, args[i+1])
		}
	}
	slices.Sort(resumed)
	want := []string{ids["A"], ids["B"]}
	slices.Sort(want)
	if !slices.Equal(resumed, want) {
		t.Fatalf("after +up again the panes resumed %q, want %q (starts %q)", resumed, want, w.agentStarts()[starts:])
	}
	for label, other := range map[string]string{"A": "B", "B": "A"} {
		texts := w.turn(tm, p[label], "again from "+label).UserTexts()
		if !slices.Contains(texts, "hello from "+label) || slices.Contains(texts, "hello from "+other) {
			t.Errorf("pane %s after +up: the conversation holds %q, want its own first turn only", label, texts)
		}
	}
	w.gemini.Push(fakegemini.Text("bye"))
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}
