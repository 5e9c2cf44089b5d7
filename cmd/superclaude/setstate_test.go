package main

import (
	"path/filepath"
	"testing"

	"github.com/superclaude/superclaude/state"
)

// setAll changes every session of dir/sessions (its index in
// dir/state/index, as the tests' environments put them) as
// superclaude's own hooks and status line would: `+session update`
// refuses superclaude's own fields (overflowed, contextUsage …), so a
// test that needs a session in such a state writes it through the store.
func setAll(t *testing.T, dir string, fn func(*state.State)) {
	t.Helper()
	sessions := filepath.Join(dir, "sessions")
	store, err := state.OpenIn(sessions, filepath.Join(dir, "state", "index"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := store.Names()
	if err != nil || len(names) == 0 {
		t.Fatalf("no session in %s: %v", sessions, err)
	}
	for _, name := range names {
		if _, err := store.Update(name, "test", func(st *state.State) error { fn(st); return nil }); err != nil {
			t.Fatal(err)
		}
	}
}
