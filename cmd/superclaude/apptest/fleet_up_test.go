package apptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
)

// TestUpChecksEveryPaneBeforeCreatingAnything: a pane whose agent cannot
// start was reported as up (exit 0, the pane left showing "Pane is dead
// (status 2)"). +up now checks every pane's agent and directory first,
// names every problem, and creates nothing.
func TestUpChecksEveryPaneBeforeCreatingAnything(t *testing.T) {
	w := newWorld(t)
	for name, c := range map[string]struct {
		body string
		want []string
	}{
		"agent not found": {
			body: window("main") + pane("A") + pane("B", `command = "no-such-agent-xyz"`),
			want: []string{`pane "B"`, "no-such-agent-xyz", "not found on PATH"},
		},
		"every problem at once": {
			body: window("main") + pane("A", `command = "./not-here"`) + pane("B") + pane("C", `dir = "missing"`),
			want: []string{`pane "A"`, "not-here does not exist", `pane "C"`, "missing does not exist"},
		},
		"worktree outside a repository": {
			body: window("main") + pane("A", "worktree = true"),
			want: []string{`pane "A"`, "not in a git repository"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			w.writeFleet(c.body)
			out, err := w.Run("+up", w.File)
			if err == nil {
				t.Fatalf("+up succeeded: %s", out)
			}
			for _, want := range c.want {
				if !strings.Contains(out, want) {
					t.Errorf("+up's error does not say %q:\n%s", want, out)
				}
			}
			if _, err := w.Tmux("has-session", "-t", "=work"); err == nil {
				t.Errorf("+up failed but created the tmux session")
			}
			if _, err := os.Stat(filepath.Join(w.Dir, "sessions")); err == nil {
				t.Errorf("+up failed but created the sessions directory")
			}
			if s := w.starts(); len(s) > 0 {
				t.Errorf("+up failed but started agents: %+v", s)
			}
		})
	}
}

// gitRepo makes a repository with one commit holding sdk/README.
func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: worktree panes need it")
	}
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, "sdk"), 0o700)
	os.WriteFile(filepath.Join(repo, "sdk", "README"), []byte("sdk\n"), 0o600)
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-q", "-m", "first")
	real, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestUpFailsAsAWholeRemovingWhatItCreated: when something cannot be
// created after the checks passed — here git cannot make pane B's
// worktree, after pane A's worktree, the tmux session and A's supervisor
// exist — +up removes all of it and says why.
func TestUpFailsAsAWholeRemovingWhatItCreated(t *testing.T) {
	w := newWorld(t)
	repo := gitRepo(t, w.Dir)
	hook := filepath.Join(repo, ".git", "hooks", "post-checkout")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncase \"$PWD\" in */B) echo 'refusing B' >&2; exit 1;; esac\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	w.writeFleet(fmt.Sprintf("dir = %q\n", repo) + window("main") + pane("A", "worktree = true") + pane("B", "worktree = true"))
	out, err := w.Run("+up", w.File)
	if err == nil {
		t.Fatalf("+up succeeded: %s", out)
	}
	for _, want := range []string{`pane "B"`, "refusing B", "nothing of this +up is left"} {
		if !strings.Contains(out, want) {
			t.Errorf("+up's error does not say %q:\n%s", want, out)
		}
	}
	if _, err := w.Tmux("has-session", "-t", "=work"); err == nil {
		t.Errorf("the tmux session outlived the failed +up")
	}
	if list := gitIn(t, repo, "worktree", "list"); strings.Count(list, "\n") != 0 {
		t.Errorf("worktrees outlived the failed +up:\n%s", list)
	}
	if branches := gitIn(t, repo, "branch", "--list", "superclaude/*"); branches != "" {
		t.Errorf("branches outlived the failed +up: %s", branches)
	}
	if _, err := os.Stat(filepath.Join(repo, ".superclaude", "worktrees", "work")); err == nil {
		t.Errorf("worktree directories outlived the failed +up")
	}
	w.waitFor("no process of the fleet left", func() bool {
		a, _ := proc.FindByEnv(fakeagent.EnvLog, w.Log)
		s, _ := proc.FindByEnv(envvar.Fleet, w.File)
		return len(a)+len(s) == 0
	})
}

// TestUpOnARunningFleetStartsOnlyTheMissingPanes: a second +up returned 1
// and left the fleet half up. Now it starts the panes that are not running
// — one whose supervisor died, one whose window was closed, one new in the
// file — and leaves the live one alone.
func TestUpOnARunningFleetStartsOnlyTheMissingPanes(t *testing.T) {
	w := newWorld(t)
	w.writeFleet(window("main") + pane("A") + pane("B") + window("side") + pane("C"))
	w.SC("+up", w.File)
	w.waitBound(3)
	first := map[string]fakeagent.Record{}
	for _, s := range w.starts() {
		first[paneOf(s)] = s
	}

	// B's supervisor dies (its pane stays, dead); C's window is closed.
	proc.Signal(supervisorOf(t, first["B"]), syscall.SIGKILL)
	if _, err := w.Tmux("kill-window", "-t", "=work:side"); err != nil {
		t.Fatal(err)
	}
	w.waitFor("B's and C's agents to end", func() bool {
		return !proc.Alive(proc.Identity{PID: first["B"].PID, Start: first["B"].Start}) &&
			!proc.Alive(proc.Identity{PID: first["C"].PID, Start: first["C"].Start}) &&
			!proc.Alive(supervisorOf(t, first["C"]))
	})
	// D is added to the file.
	w.writeFleet(window("main") + pane("A") + pane("B") + pane("D") + window("side") + pane("C"))

	out := w.SC("+up", w.File)
	if !strings.Contains(out, "3 panes started, 1 already running") {
		t.Errorf("+up on a running fleet: %s", out)
	}
	w.waitFor("B, C and D started again", func() bool { return len(w.starts()) == 6 })
	for _, s := range w.starts()[3:] {
		args := fmt.Sprint(withoutInjected(s.Args))
		switch label := paneOf(s); label {
		case "B", "C":
			if want := fmt.Sprint([]string{"--resume", convID(label)}); args != want {
				t.Errorf("pane %s started with %s, want %s", label, args, want)
			}
		case "D":
			if args != "[]" {
				t.Errorf("the new pane D started with %s", args)
			}
		default:
			t.Errorf("pane %s was started again; it was running", label)
		}
	}
	a := first["A"]
	if !proc.Alive(proc.Identity{PID: a.PID, Start: a.Start}) || !proc.Alive(supervisorOf(t, a)) {
		t.Errorf("pane A's agent or supervisor did not survive the second +up")
	}
	panes, _ := w.Tmux("list-panes", "-s", "-t", "=work:", "-F", "#{window_name}:#{@pane_label}:#{pane_dead}")
	got := strings.Fields(panes)
	slices.Sort(got)
	if want := []string{"main:A:0", "main:B:0", "main:D:0", "side:C:0"}; !slices.Equal(got, want) {
		t.Errorf("panes after the second +up: %q, want %q", got, want)
	}
	w.SC("+down", w.File)
	w.nothingLeft(w.starts())
}
