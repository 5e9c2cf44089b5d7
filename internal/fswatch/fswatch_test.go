package fswatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func changed(w *Watcher, within time.Duration) bool {
	select {
	case <-w.Changed():
		return true
	case <-time.After(within):
		return false
	}
}

// drain takes a change already reported, if any.
func drain(w *Watcher) {
	for changed(w, 50*time.Millisecond) {
	}
}

func newWatcher(t *testing.T) *Watcher {
	t.Helper()
	w, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// The agent's status file lives in a directory the agent creates when it
// first starts: the watch waits for it from the nearest ancestor and
// reports the file once it is written.
func TestWatchedFileInADirectoryNotYetMade(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "config", "sessions", "42.json")
	w := newWatcher(t)
	w.Watch(file)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	drain(w) // the directories' creation may be reported
	if err := os.WriteFile(file, []byte(`{"status":"idle"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if !changed(w, 5*time.Second) {
		t.Fatal("a file written in a directory made after Watch was not reported")
	}
}

// State files are replaced by rename: a new inode each time.
func TestFileReplacedByRenameIsReported(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".state.json")
	os.WriteFile(file, []byte("{}"), 0o600)
	w := newWatcher(t)
	w.Watch(file)
	for i := 0; i < 3; i++ {
		tmp := filepath.Join(dir, ".state.json.tmp")
		os.WriteFile(tmp, []byte(`{"n":1}`), 0o600)
		drain(w)
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
		if !changed(w, 5*time.Second) {
			t.Fatalf("replacement %d not reported", i)
		}
	}
}

// Another agent's file in the same directory wakes nobody but its own
// supervisor.
func TestOtherFilesInTheDirectoryAreNotReported(t *testing.T) {
	dir := t.TempDir()
	w := newWatcher(t)
	w.Watch(filepath.Join(dir, "1.json"))
	drain(w)
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(dir, "2.json"), []byte("{}"), 0o600)
	}
	if changed(w, 300*time.Millisecond) {
		t.Fatal("a write to another file in the directory was reported")
	}
	// A new set replaces the old one.
	w.Watch(filepath.Join(dir, "2.json"))
	drain(w)
	os.WriteFile(filepath.Join(dir, "2.json"), []byte("{}"), 0o600)
	if !changed(w, 5*time.Second) {
		t.Fatal("the file of the new set was not reported")
	}
	drain(w) // the rest of that write's events
	os.WriteFile(filepath.Join(dir, "1.json"), []byte("{}"), 0o600)
	if changed(w, 300*time.Millisecond) {
		t.Fatal("a file dropped from the set was still reported")
	}
}

// A session directory removed and made anew keeps being watched.
func TestDirectoryMadeAnewIsWatchedAgain(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "sess", ".state.json")
	os.MkdirAll(filepath.Dir(file), 0o700)
	w := newWatcher(t)
	w.Watch(file)
	os.RemoveAll(filepath.Dir(file))
	drain(w)
	os.MkdirAll(filepath.Dir(file), 0o700)
	drain(w)
	os.WriteFile(file, []byte("{}"), 0o600)
	if !changed(w, 5*time.Second) {
		t.Fatal("a file in a directory made anew was not reported")
	}
}

// A directory named with a trailing separator stands for every file in
// it: Codex writes each conversation to a new file in a directory of the
// day, which Codex makes, and Gemini CLI its chats beside each other.
// Files beside that directory are not reported.
func TestAnyFileInAWatchedDirectoryIsReported(t *testing.T) {
	root := t.TempDir()
	day := filepath.Join(root, "sessions", "2026", "11", "25")
	w := newWatcher(t)
	w.Watch(day + string(filepath.Separator))
	if err := os.MkdirAll(day, 0o700); err != nil {
		t.Fatal(err)
	}
	drain(w) // the directories' creation may be reported
	if err := os.WriteFile(filepath.Join(day, "rollout-1.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !changed(w, 5*time.Second) {
		t.Fatal("a file made in a watched directory made after Watch was not reported")
	}
	drain(w)
	f, err := os.OpenFile(filepath.Join(day, "rollout-1.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if !changed(w, 5*time.Second) {
		t.Fatal("a write to a file in a watched directory was not reported")
	}
	drain(w)
	os.WriteFile(filepath.Join(root, "sessions", "2026", "beside.json"), nil, 0o600)
	if changed(w, 300*time.Millisecond) {
		t.Fatal("a file outside the watched directory was reported")
	}
}

// TestAFileWrittenBeforeItsDirectoryWasWatchedIsReported: a supervised
// Codex's conversation was never learned (CI, 2026-12-02): its day's
// directory and rollout file were made while the watch was still on an
// ancestor, and no event ever came. A directory newly watched is
// reported as a change, so that its owner reads what is already there.
func TestAFileWrittenBeforeItsDirectoryWasWatchedIsReported(t *testing.T) {
	root := t.TempDir()
	day := filepath.Join(root, "sessions", "2026", "12", "02")
	os.MkdirAll(day, 0o700)
	os.WriteFile(filepath.Join(day, "rollout.jsonl"), []byte("{}\n"), 0o600)
	w := newWatcher(t)
	w.Watch(day + string(filepath.Separator))
	if !changed(w, 5*time.Second) {
		t.Fatal("watching a directory that already held a file reported no change")
	}
	// Named again, nothing new is watched: nothing to report.
	w.Watch(day + string(filepath.Separator))
	if changed(w, 300*time.Millisecond) {
		t.Fatal("the same set named again reported a change")
	}
}

func TestTowardsIsTheNextDirectoryDown(t *testing.T) {
	for _, tc := range []struct{ dir, start, want string }{
		{"/a", "/a/b/c/d", "/a/b"},
		{"/a/b/c", "/a/b/c/d", "/a/b/c/d"},
		{"/", "/a/b", "/a"},
	} {
		if got := towards(tc.dir, tc.start); got != tc.want {
			t.Errorf("towards(%q, %q) = %q, want %q", tc.dir, tc.start, got, tc.want)
		}
	}
}
