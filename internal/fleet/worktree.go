package fleet

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A pane with `worktree = true` runs its agent in a git worktree of its
// own, on a branch of its own, so that agents working side by side never
// edit the same checkout.
//
// Where: <repo>/.superclaude/worktrees/<fleet>/<window>/<label>, on branch
// superclaude/<fleet>/<window>/<label>, where <repo> is the top of the
// checkout the pane's dir is in; the agent runs at the pane's dir's place
// inside it. Inside the repository, as Claude Code's own `claude
// --worktree` does (<repo>/.claude/worktrees/<name>): the worktrees go
// where the repository is, are found from it, and never land in a parent
// directory that holds other projects. Up writes .superclaude/.gitignore
// ("*"), so the main checkout's `git status` does not show them. The path
// is the pane's identity, so it is the same on every Up, and the agent's
// conversations, which Claude Code files by directory, resume there.
//
// Up creates a worktree that is missing (on the existing branch when there
// is one) and reuses one that is there. Nothing removes one but
// `superclaude +down FILE --clean-worktrees`, which leaves a worktree that
// holds uncommitted or untracked files, and a branch that holds commits no
// other branch has, and says so: work is never dropped silently.
type worktree struct {
	// repo is the top of the checkout the pane's dir is in; sub is the
	// pane's dir relative to it ("" at the top).
	repo, sub    string
	path, branch string
	// registered: git knows the worktree already.
	registered bool
}

const worktreesDir = ".superclaude/worktrees"

// ourGitignore is the .gitignore Up writes in .superclaude.
const ourGitignore = "# superclaude's fleet worktrees: see superclaude +help +up\n*\n"

func worktreeName(s *Spec, w Window, p Pane) string { return s.Name + "/" + w.Name + "/" + p.Label }

func (wt *worktree) runDir() string { return filepath.Join(wt.path, wt.sub) }

// git runs git in dir, without a terminal to prompt on.
func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil {
		if text == "" {
			text = err.Error()
		}
		return text, errors.New(text)
	}
	return text, nil
}

// findWorktree locates the worktree of a pane whose dir is dir.
func findWorktree(dir, name string) (*worktree, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("worktree = true: %s is not in a git repository (%v)", dir, err)
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	wt := &worktree{
		repo:   top,
		sub:    strings.TrimSuffix(prefix, "/"),
		path:   filepath.Join(top, filepath.FromSlash(worktreesDir), filepath.FromSlash(name)),
		branch: "superclaude/" + name,
	}
	list, err := git(top, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	for _, w := range parseWorktrees(list) {
		switch {
		case samePath(w.path, wt.path):
			wt.registered = true
		case w.branch == "refs/heads/"+wt.branch:
			return nil, fmt.Errorf("worktree = true: branch %s is checked out in %s, not in %s", wt.branch, w.path, wt.path)
		}
	}
	return wt, nil
}

// planWorktree checks that a pane's worktree can be made, or is there.
func planWorktree(dir, name string) (*worktree, error) {
	wt, err := findWorktree(dir, name)
	if err != nil {
		return nil, err
	}
	if err := realDirs(wt.repo, filepath.Join(filepath.FromSlash(worktreesDir), filepath.FromSlash(name))); err != nil {
		return nil, err
	}
	if wt.registered {
		if fi, err := os.Stat(wt.runDir()); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("worktree %s has no %s", wt.path, wt.sub)
		}
		return wt, nil
	}
	if _, err := os.Lstat(wt.path); err == nil {
		return nil, fmt.Errorf("worktree = true: %s exists and is not a worktree of %s", wt.path, wt.repo)
	}
	if _, err := git(wt.repo, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		return nil, fmt.Errorf("worktree = true: repository %s has no commit yet, and a worktree starts from one: make a first commit there (git -C %s commit --allow-empty -m \"first commit\"), then +up again", wt.repo, wt.repo)
	}
	if wt.sub != "" {
		if _, err := git(wt.repo, "cat-file", "-e", "HEAD:"+filepath.ToSlash(wt.sub)); err != nil {
			return nil, fmt.Errorf("worktree = true: %s is not in the last commit of %s, so its worktree would not have it", wt.sub, wt.repo)
		}
	}
	return wt, nil
}

// realDirs refuses a path below root any of whose existing components is
// not a real directory: a repository could ship .superclaude as a link to
// send worktrees elsewhere.
func realDirs(root, rel string) error {
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("worktree = true: %s is not a directory (a link?): no worktree is made through it", p)
		}
	}
	return nil
}

// create makes the worktree unless git has it already, and reports whether
// it made the branch too. A failed attempt leaves nothing behind.
func (wt *worktree) create() (newBranch bool, err error) {
	if wt.registered {
		return false, nil
	}
	top := filepath.Join(wt.repo, ".superclaude")
	if err := os.MkdirAll(filepath.Dir(wt.path), 0o700); err != nil {
		return false, err
	}
	// Ignore everything under .superclaude, this file included, so the
	// main checkout stays clean.
	if f, err := os.OpenFile(filepath.Join(top, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.WriteString(ourGitignore)
		f.Close()
	}
	if _, err := git(wt.repo, "rev-parse", "--verify", "-q", "refs/heads/"+wt.branch); err == nil {
		_, err = git(wt.repo, "worktree", "add", wt.path, wt.branch)
		if err != nil {
			wt.undo(false)
			return false, fmt.Errorf("git worktree add %s %s: %w", wt.path, wt.branch, err)
		}
		return false, nil
	}
	if _, err := git(wt.repo, "worktree", "add", "-b", wt.branch, wt.path, "HEAD"); err != nil {
		wt.undo(true)
		return false, fmt.Errorf("git worktree add -b %s %s: %w", wt.branch, wt.path, err)
	}
	return true, nil
}

// undo removes what a failed create left: the worktree if git registered
// it (only when clean), and the branch it made (only when merged).
func (wt *worktree) undo(branch bool) {
	if again, err := findWorktree(wt.repo, strings.TrimPrefix(wt.branch, "superclaude/")); err == nil && again.registered {
		git(wt.repo, "worktree", "remove", wt.path)
	}
	if branch {
		git(wt.repo, "branch", "-d", wt.branch)
	}
	wt.pruneParents()
}

// remove removes the worktree — git refuses when it holds modified or
// untracked files — and then, when deleteBranch, the branch — git refuses
// when it holds commits not merged into the repository's HEAD. It returns
// one line for each thing removed or kept.
func (wt *worktree) remove(deleteBranch bool) []string {
	var notes []string
	if _, err := git(wt.repo, "worktree", "remove", wt.path); err != nil {
		return append(notes, fmt.Sprintf("kept worktree %s: %v\n  commit or stash its changes and run this again, or drop them with: git -C %s worktree remove --force %s",
			wt.path, err, wt.repo, wt.path))
	}
	notes = append(notes, "removed worktree "+wt.path)
	wt.pruneParents()
	if !deleteBranch {
		return notes
	}
	if _, err := git(wt.repo, "branch", "-d", wt.branch); err != nil {
		return append(notes, fmt.Sprintf("kept branch %s: it has commits that %s's HEAD does not (merge it, or drop it with: git -C %s branch -D %s)",
			wt.branch, wt.repo, wt.repo, wt.branch))
	}
	return append(notes, "deleted branch "+wt.branch)
}

// pruneParents removes the directories above the worktree that are left
// empty, up to .superclaude/worktrees.
func (wt *worktree) pruneParents() {
	stop := filepath.Join(wt.repo, filepath.FromSlash(worktreesDir))
	for d := filepath.Dir(wt.path); strings.HasPrefix(d, stop+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// pruneTop removes what Up made in repo to hold worktrees, once no
// worktree is left in it (issue 19: +down --clean-worktrees left an empty
// .superclaude/worktrees behind): .superclaude/worktrees when it is an
// empty directory, then .superclaude when it holds nothing but the
// .gitignore Up wrote, as Up wrote it. Anything else in them — a
// worktree kept for its work, a file of someone else's — keeps them; a
// link is never followed nor removed. It reports what it removed.
func pruneTop(repo string) []string {
	var removed []string
	top := filepath.Join(repo, ".superclaude")
	wts := filepath.Join(repo, filepath.FromSlash(worktreesDir))
	if realDir(wts) && os.Remove(wts) == nil { // fails unless empty
		removed = append(removed, wts)
	}
	if !realDir(top) {
		return removed
	}
	entries, err := os.ReadDir(top)
	if err != nil || len(entries) != 1 || entries[0].Name() != ".gitignore" || !entries[0].Type().IsRegular() {
		return removed
	}
	ignore := filepath.Join(top, ".gitignore")
	if b, err := os.ReadFile(ignore); err != nil || string(b) != ourGitignore {
		return removed
	}
	if os.Remove(ignore) == nil && os.Remove(top) == nil {
		removed = append(removed, top)
	}
	return removed
}

// realDir reports whether path is a directory, not a link to one.
func realDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

type listedWorktree struct{ path, branch string }

// parseWorktrees reads `git worktree list --porcelain`: blocks of
// "worktree PATH", "HEAD …", "branch REF" lines, separated by blank lines.
func parseWorktrees(out string) []listedWorktree {
	var list []listedWorktree
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "worktree "); ok {
			list = append(list, listedWorktree{path: p})
		} else if b, ok := strings.CutPrefix(line, "branch "); ok && len(list) > 0 {
			list[len(list)-1].branch = b
		}
	}
	return list
}

func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// CleanWorktrees removes the worktrees of a fleet's worktree panes, and
// their branches, except what holds work (see worktree). Run it once the
// fleet is down. It returns one line for each thing removed or kept.
func CleanWorktrees(s *Spec) ([]string, error) {
	var notes, repos []string
	var errs []error
	for _, w := range s.Windows {
		for _, p := range w.Panes {
			if !p.Worktree {
				continue
			}
			wt, err := findWorktree(s.PaneDir(w, p), worktreeName(s, w, p))
			if err != nil {
				errs = append(errs, fmt.Errorf("window %q pane %q: %w", w.Name, p.Label, err))
				continue
			}
			if !slices.Contains(repos, wt.repo) {
				repos = append(repos, wt.repo)
			}
			if !wt.registered {
				continue
			}
			notes = append(notes, wt.remove(true)...)
		}
	}
	for _, repo := range repos {
		for _, dir := range pruneTop(repo) {
			notes = append(notes, "removed "+dir+" (nothing is left in it)")
		}
	}
	return notes, errors.Join(errs...)
}
