package sessions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// world is a user's state in a temporary directory: a lookup index and
// the sessions roots made in it.
type world struct {
	t        *testing.T
	dir, idx string
}

func newWorld(t *testing.T) *world {
	dir := t.TempDir()
	return &world{t: t, dir: dir, idx: filepath.Join(dir, "index")}
}

// store opens the sessions root at rel (made on its first write).
func (w *world) store(rel string) *state.Store {
	w.t.Helper()
	s, err := state.OpenIn(filepath.Join(w.dir, rel), w.idx)
	if err != nil {
		w.t.Fatal(err)
	}
	s.Actor = "test"
	return s
}

// activate makes session name in s, owned by owner.
func (w *world) activate(s *state.Store, name string, owner proc.Identity) {
	w.t.Helper()
	if _, err := s.Activate(name, "implement", state.Caller{Owner: owner}); err != nil {
		w.t.Fatal(err)
	}
}

func self(t *testing.T) proc.Identity {
	t.Helper()
	id, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// gone is an identity no live process has.
func gone(t *testing.T) proc.Identity {
	id := self(t)
	id.Start++
	return id
}

func names(views []cli.SessionView) string {
	var out []string
	for _, v := range views {
		out = append(out, v.Name+"="+v.State)
	}
	return strings.Join(out, " ")
}

// One reading gives each session its state and its view, index for
// index, in the order of the stores; keep narrows it.
func TestReadGivesEachSessionItsView(t *testing.T) {
	w := newWorld(t)
	a, b := w.store("a/sessions"), w.store("b/sessions")
	w.activate(a, "one", gone(t))
	w.activate(b, "two", gone(t))
	w.activate(b, "three", gone(t))
	snap := Read([]*state.Store{a, b}, nil, time.Now())
	if got := names(snap.Views); got != "one=stopped three=stopped two=stopped" {
		t.Fatalf("views: %s", got)
	}
	for i, sess := range snap.Sessions {
		if snap.Views[i].Name != sess.Name || snap.Views[i].Dir != sess.Dir || sess.Store == nil {
			t.Errorf("session %d: %+v against view %+v", i, sess, snap.Views[i])
		}
	}
	only := Read([]*state.Store{a, b}, func(s state.Session) bool { return s.Store.Root == b.Root }, time.Now())
	if got := names(only.Views); got != "three=stopped two=stopped" {
		t.Fatalf("kept: %s", got)
	}
}

// A live owner that serves no control socket — a shell where a person
// typed +session activate — is no supervisor: nothing can restart its
// agent, and +status and the dashboard both say so (this test process
// stands for the shell).
func TestReadMarksALiveOwnerWithoutASocketAsNoSupervisor(t *testing.T) {
	w := newWorld(t)
	s := w.store("sessions")
	w.activate(s, "held", self(t))
	w.activate(s, "ended", gone(t))
	snap := Read([]*state.Store{s}, nil, time.Now())
	got := map[string]bool{}
	for _, v := range snap.Views {
		got[v.Name] = v.NoSupervisor
	}
	if !got["held"] || got["ended"] {
		t.Fatalf("no supervisor: %v; want held only", got)
	}
}

// A root never made holds nothing and is no problem; one that cannot be
// listed is said, and the others are read.
func TestReadSaysWhatItCouldNotList(t *testing.T) {
	w := newWorld(t)
	good, never := w.store("good"), w.store("never")
	w.activate(good, "x", gone(t))
	file := filepath.Join(w.dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bad, err := state.OpenIn(file, w.idx)
	if err != nil {
		t.Fatal(err)
	}
	snap := Read([]*state.Store{never, bad, good}, nil, time.Now())
	if names(snap.Views) != "x=stopped" || len(snap.Problems) != 1 || !strings.Contains(snap.Problems[0], "sessions directory "+file) {
		t.Fatalf("views %s, problems %q", names(snap.Views), snap.Problems)
	}
	// --json prints [] for no sessions, never null.
	if empty := Read(nil, nil, time.Now()); empty.Views == nil {
		t.Fatal("an empty reading has nil views")
	}
}

// Roots are the index's and the ones given, each once, absolute, sorted.
func TestRootsListEachRootOnce(t *testing.T) {
	w := newWorld(t)
	a, b := w.store("a"), w.store("b")
	w.activate(a, "x", gone(t))
	w.activate(b, "y", gone(t))
	extra := filepath.Join(w.dir, "extra")
	got := Roots(w.idx, extra, a.Root, filepath.Join(w.dir, "b", "..", "b"))
	want := []string{a.Root, b.Root, extra}
	if !slices.Equal(got, want) {
		t.Fatalf("roots %q, want %q", got, want)
	}
	if got := Roots("", "z", extra); len(got) != 2 || !filepath.IsAbs(got[0]) {
		t.Fatalf("without an index: %q", got)
	}
}
