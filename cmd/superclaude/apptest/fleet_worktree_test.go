package apptest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorktreePaneRunsInItsOwnWorktree: a pane with worktree = true runs
// its agent in a git worktree of its own, named after the pane, on a
// branch of its own; +down --clean-worktrees removes it, but never a
// worktree with uncommitted work nor a branch with unmerged commits.
func TestWorktreePaneRunsInItsOwnWorktree(t *testing.T) {
	w := newWorld(t)
	repo := gitRepo(t, w.Dir)
	w.writeFleet(fmt.Sprintf("dir = %q\n", repo) + window("main") +
		pane("A", `dir = "sdk"`, "worktree = true") + pane("B", `dir = "sdk"`))
	out := w.SC("+up", w.File)
	wt := filepath.Join(repo, ".superclaude", "worktrees", "work", "main", "A")
	if !strings.Contains(out, "new worktree "+wt) {
		t.Errorf("+up does not name the worktree it made:\n%s", out)
	}
	w.waitBound(2)
	dirs := map[string]string{}
	for _, s := range w.starts() {
		dirs[paneOf(s)] = s.Dir
	}
	if want := filepath.Join(wt, "sdk"); dirs["A"] != want {
		t.Errorf("pane A's agent runs in %s, want %s", dirs["A"], want)
	}
	if want := filepath.Join(repo, "sdk"); dirs["B"] != want {
		t.Errorf("pane B's agent runs in %s, want %s (no worktree)", dirs["B"], want)
	}
	if branch := gitIn(t, wt, "branch", "--show-current"); branch != "superclaude/work/main/A" {
		t.Errorf("the worktree is on branch %q", branch)
	}
	if st := gitIn(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the worktrees show in the main checkout's status:\n%s", st)
	}

	// Work in progress: an untracked file. --clean-worktrees keeps it.
	notes := filepath.Join(wt, "sdk", "notes.txt")
	os.WriteFile(notes, []byte("half done\n"), 0o600)
	out = w.SC("+down", w.File, "--clean-worktrees")
	if !strings.Contains(out, "kept worktree "+wt) {
		t.Errorf("+down --clean-worktrees does not say it kept the worktree with work in it:\n%s", out)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Fatalf("uncommitted work was removed: %v", err)
	}

	// Committed: the worktree goes, its branch, with a commit only it has,
	// stays — and the fleet is down already, which is no error.
	gitIn(t, wt, "add", ".")
	gitIn(t, wt, "commit", "-q", "-m", "notes")
	out = w.SC("+down", w.File, "--clean-worktrees")
	for _, want := range []string{"is not up", "removed worktree " + wt, "kept branch superclaude/work/main/A"} {
		if !strings.Contains(out, want) {
			t.Errorf("+down --clean-worktrees does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(wt); err == nil {
		t.Errorf("the clean worktree %s is still there", wt)
	}
	// Regression, issue 19: nor is what held it, left empty.
	if _, err := os.Lstat(filepath.Join(repo, ".superclaude")); err == nil {
		t.Errorf("+down --clean-worktrees left %s/.superclaude behind:\n%s", repo, out)
	}

	// Up again: the worktree is made anew on the pane's branch, work and all.
	w.SC("+up", w.File)
	w.waitFor("A and B started again", func() bool { return len(w.starts()) == 4 })
	if _, err := os.Stat(notes); err != nil {
		t.Errorf("the worktree made again is not on the pane's branch: %v", err)
	}
	w.SC("+down", w.File)
	w.nothingLeft(w.starts())
}

// TestWorktreeRefusesALinkedWorktreesDirectory: a repository could ship
// .superclaude as a link to make worktrees land elsewhere; +up refuses.
func TestWorktreeRefusesALinkedWorktreesDirectory(t *testing.T) {
	w := newWorld(t)
	repo := gitRepo(t, w.Dir)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(repo, ".superclaude")); err != nil {
		t.Fatal(err)
	}
	w.writeFleet(fmt.Sprintf("dir = %q\n", repo) + window("main") + pane("A", "worktree = true"))
	out, err := w.Run("+up", w.File)
	if err == nil || !strings.Contains(out, "is not a directory (a link?)") {
		t.Errorf("+up through a linked .superclaude: %v %s", err, out)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("+up wrote through the link: %v", entries)
	}
}
