package e2e

import (
	"testing"

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
	f := newAgentFleet(w.world, tm, "cf", "codex", tm.codexReady)
	threads := map[string]string{}
	p := f.up()
	for _, label := range []string{"A", "B"} {
		threads[label] = w.turn(tm, p[label], "hello from "+label).ThreadID
	}
	first := f.bound()
	if first["A"].SessionID != threads["A"] || first["B"].SessionID != threads["B"] || threads["A"] == threads["B"] {
		t.Fatalf("bound A %s, B %s; codex's threads A %s, B %s", first["A"].SessionID, first["B"].SessionID, threads["A"], threads["B"])
	}
	p = f.downUpResumes(first, "resume")
	for _, label := range []string{"A", "B"} {
		if got := w.turn(tm, p[label], "again from "+label).ThreadID; got != threads[label] {
			t.Errorf("pane %s runs thread %s after +up, want its own %s", label, got, threads[label])
		}
	}
	w.openai.Push(fakeopenai.Text("bye"))
	f.down()
}
