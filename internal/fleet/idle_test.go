package fleet

import (
	"path/filepath"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// "Fleet all idle" is told when the last busy agent of a fleet finishes
// its turn: every other pane's agent idle, or its pane stopped; never
// while one works, waits for the person, or cannot be read.
func TestAllIdle(t *testing.T) {
	idle := paneAgent{Running: true, Status: "idle"}
	for _, tc := range []struct {
		name   string
		others map[string]paneAgent
		want   bool
	}{
		{"a fleet of one", nil, true},
		{"every other agent idle", map[string]paneAgent{"w:m:B": idle, "w:m:C": idle}, true},
		{"one still busy", map[string]paneAgent{"w:m:B": idle, "w:m:C": {Running: true, Status: "busy"}}, false},
		{"one waits for the person", map[string]paneAgent{"w:m:B": {Running: true, Status: "waiting"}}, false},
		{"one whose supervisor has stopped waits on no one", map[string]paneAgent{"w:m:B": idle, "w:m:C": {Status: "busy"}}, true},
		{"one not yet saying", map[string]paneAgent{"w:m:B": {Running: true}}, false},
		{"one whose session cannot be read", map[string]paneAgent{"w:m:B": {Unknown: true}}, false},
	} {
		panes := []string{"w:m:A"}
		for id := range tc.others {
			panes = append(panes, id)
		}
		got := allIdle("w:m:A", panes, func(id string) paneAgent {
			if a, ok := tc.others[id]; ok {
				return a
			}
			t.Fatalf("%s: asked for %s", tc.name, id)
			return paneAgent{}
		})
		if got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if allIdle("w:m:A", []string{"w:m:B"}, func(string) paneAgent { return paneAgent{Running: true, Status: "idle"} }) {
		t.Error("a pane that is not in the fleet's list makes it all idle")
	}
}

// On a real tmux server and sessions directory: the fleet's panes are
// its tmux session's, each read from its pane's session.
func TestAllIdleReadsTheFleetsPanes(t *testing.T) {
	rep, err, srv := upOnPrivateTmux(t, 3)
	if err != nil || rep.Started != 3 {
		t.Fatalf("Up: %+v, %v", rep, err)
	}
	dir := t.TempDir()
	store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	me, _ := proc.Self()
	status := func(name, s string) {
		t.Helper()
		if _, err := store.Update(name, "agent status", func(st *state.State) error { st.AgentStatus = s; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"P0", "P1", "P2"} {
		if _, err := store.Activate(p, "", state.Caller{Owner: me, Pane: "big:main:" + p}); err != nil {
			t.Fatal(err)
		}
		status(p, "busy")
	}
	status("P1", "idle")
	if name, ok := AllIdle(srv, store, "big:main:P0"); ok || name != "big" {
		t.Fatalf("P2 is busy: %q %v", name, ok)
	}
	status("P2", "idle")
	if name, ok := AllIdle(srv, store, "big:main:P0"); !ok || name != "big" {
		t.Fatalf("every other pane idle: %q %v", name, ok)
	}
	if _, ok := AllIdle(srv, store, "%3"); ok {
		t.Fatal("an unlabelled pane has a fleet")
	}
}
