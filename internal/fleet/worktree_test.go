package fleet

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Regression, issue 19: +down --clean-worktrees left an empty
// .superclaude/worktrees in the repository. What Up made to hold the
// worktrees goes once nothing is left in it — and only then: a worktree
// kept for its work, a file of someone else's, a .gitignore changed by
// hand or a link keep it.
func TestCleanRemovesOnlyEmptyDirectoriesItMade(t *testing.T) {
	made := func(t *testing.T, extra func(repo string)) string {
		repo := t.TempDir()
		os.MkdirAll(filepath.Join(repo, ".superclaude", "worktrees"), 0o700)
		os.WriteFile(filepath.Join(repo, ".superclaude", ".gitignore"), []byte(ourGitignore), 0o600)
		if extra != nil {
			extra(repo)
		}
		return repo
	}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }

	repo := made(t, nil)
	if got := pruneTop(repo); !slices.Equal(got, []string{filepath.Join(repo, ".superclaude", "worktrees"), filepath.Join(repo, ".superclaude")}) {
		t.Errorf("removed %q", got)
	}
	if exists(filepath.Join(repo, ".superclaude")) {
		t.Error(".superclaude is still there")
	}

	for _, tc := range []struct {
		name   string
		extra  func(repo string)
		kept   []string // still there
		remove int
	}{
		{"a worktree kept for its work", func(r string) {
			os.MkdirAll(filepath.Join(r, ".superclaude", "worktrees", "work", "main", "A"), 0o700)
		}, []string{".superclaude/worktrees/work/main/A"}, 0},
		{"a file of someone else's", func(r string) {
			os.WriteFile(filepath.Join(r, ".superclaude", "notes.md"), []byte("mine"), 0o600)
		}, []string{".superclaude/notes.md", ".superclaude/.gitignore"}, 1},
		{"a .gitignore changed by hand", func(r string) {
			os.WriteFile(filepath.Join(r, ".superclaude", ".gitignore"), []byte("*\n!keep\n"), 0o600)
		}, []string{".superclaude/.gitignore"}, 1},
		{"worktrees as a link", func(r string) {
			os.Remove(filepath.Join(r, ".superclaude", "worktrees"))
			os.Symlink(t.TempDir(), filepath.Join(r, ".superclaude", "worktrees"))
		}, []string{".superclaude/worktrees", ".superclaude/.gitignore"}, 0},
	} {
		repo := made(t, tc.extra)
		if got := pruneTop(repo); len(got) != tc.remove {
			t.Errorf("%s: removed %q", tc.name, got)
		}
		for _, k := range tc.kept {
			if !exists(filepath.Join(repo, filepath.FromSlash(k))) {
				t.Errorf("%s: %s was removed", tc.name, k)
			}
		}
	}
}
