package control

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// The mark a supervisor puts on its socket while its ticks cannot be
// stored is read back, cleared, leaves the socket 0600 otherwise and
// reachable; and only a socket is marked.
func TestTheUnsavedMarkIsOnTheSocketAlone(t *testing.T) {
	path := serve(t, func(ctx context.Context, req Request, peer Peer) Response { return Response{OK: true} })
	if Unsaved(path) {
		t.Fatal("a new socket reads as unsaved")
	}
	if err := MarkUnsaved(path, true); err != nil {
		t.Fatal(err)
	}
	me, _ := proc.Self()
	if !Unsaved(path) {
		t.Fatal("the mark is not read back")
	}
	if err := NewClient(path, me).Ping(context.Background()); err != nil {
		t.Fatalf("a marked socket does not answer: %v", err)
	}
	if err := MarkUnsaved(path, false); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(path); Unsaved(path) || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cleared: unsaved %v, mode %v; want 0600", Unsaved(path), fi.Mode().Perm())
	}

	file := filepath.Join(t.TempDir(), "not-a-socket")
	os.WriteFile(file, nil, 0o600)
	if err := MarkUnsaved(file, true); !errors.Is(err, ErrOccupied) {
		t.Fatalf("marking a file: %v; want ErrOccupied", err)
	}
	if fi, _ := os.Lstat(file); fi.Mode().Perm() != 0o600 || Unsaved(file) {
		t.Fatalf("a file was changed or read as marked: %v", fi.Mode())
	}
	if Unsaved(filepath.Join(t.TempDir(), "none")) {
		t.Fatal("no socket reads as unsaved")
	}
}
