package fleet

import (
	"slices"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/supervise"
)

// TestUnmarkedDropsEverySupervisorVariable: +up run from an agent drops
// every variable a supervisor sets for its agent, so that no fleet pane
// takes one of them — SUPERCLAUDE_LIMIT_CONTINUE, which the supervisor
// always sets, went through — and the list cannot drift from what the
// supervisor sets.
func TestUnmarkedDropsEverySupervisorVariable(t *testing.T) {
	own := supervise.OwnVariables(supervise.Config{Pane: "w:m:A", Store: &state.Store{Root: "/s"}},
		proc.Identity{PID: 1, Start: 2}, "/run/1.sock")
	var env []string
	for k, v := range own {
		env = append(env, k+"="+v)
	}
	env = append(env, "HOME=/home/me", "SUPERCLAUDE_STATE_DIR=/st")
	clean, changed := Unmarked(env)
	if !changed || !slices.Equal(clean, []string{"HOME=/home/me", "SUPERCLAUDE_STATE_DIR=/st"}) {
		t.Fatalf("Unmarked kept %v (changed %v), want only the person's variables", clean, changed)
	}
}
