package e2e

import (
	"slices"
	"testing"

	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// A fleet of two Gemini CLI panes: `+down` and `+up` again resume each
// pane's own conversation, each with `--resume <its id>`, and the next
// turn in each pane carries that pane's first turn and not the other's.
func TestGeminiFleetDownUpResumesEachPane(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	f := newAgentFleet(w.world, tm, "gf", "gemini", func(pane string) { tm.waitScreen(pane, "Type your message") })
	p := f.up()
	for _, label := range []string{"A", "B"} {
		w.turn(tm, p[label], "hello from "+label)
	}
	first := f.bound()
	if first["A"].SessionID == first["B"].SessionID {
		t.Fatalf("both panes bound conversation %s", first["A"].SessionID)
	}
	p = f.downUpResumes(first, "--resume")
	for label, other := range map[string]string{"A": "B", "B": "A"} {
		texts := w.turn(tm, p[label], "again from "+label).UserTexts()
		if !slices.Contains(texts, "hello from "+label) || slices.Contains(texts, "hello from "+other) {
			t.Errorf("pane %s after +up: the conversation holds %q, want its own first turn only", label, texts)
		}
	}
	w.gemini.Push(fakegemini.Text("bye"))
	f.down()
}
