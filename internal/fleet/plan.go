package fleet

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/lookpath"
	"github.com/superclaude/superclaude/supervise"
)

// planned is one pane as Up will start it, every check already made.
type planned struct {
	w Window
	p Pane
	// dir is the pane's working directory as the file gives it; runDir is
	// where its agent runs: dir, or the same place inside its worktree.
	dir, runDir string
	wt          *worktree
	argv, env   []string
}

// plan checks every pane that start says is to be started, before
// anything is created: its working directory exists, its agent's
// executable is found (on the PATH the pane will have, or as given), and a
// worktree pane's directory is in a git repository its worktree can be
// made from. It reports every problem at once, each naming its pane.
func (s *Spec) plan(o Options, start func(Window, Pane) bool) ([]planned, error) {
	var out []planned
	var errs []error
	serverEnv := onceEnv(func() map[string]string {
		// A running server gives new panes its own environment; one that
		// Up starts gets Up's.
		if env, ok := o.Tmux.GlobalEnviron(); ok {
			return env
		}
		env := map[string]string{}
		for _, kv := range os.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		return env
	})
	for _, w := range s.Windows {
		for _, p := range w.Panes {
			if !start(w, p) {
				continue
			}
			pl := planned{w: w, p: p, dir: s.PaneDir(w, p)}
			pl.runDir = pl.dir
			where := fmt.Sprintf("window %q pane %q", w.Name, p.Label)
			fail := func(err error) { errs = append(errs, fmt.Errorf("%s: %w", where, err)) }
			// A missing directory does not hide the pane's other
			// problems: its command is checked all the same, so that
			// one +up names everything to fix.
			dirOK := isDir(pl.dir)
			if !dirOK {
				fail(fmt.Errorf("working directory %s does not exist", pl.dir))
			}
			env := s.PaneEnv(w, p, o.Env)
			agent, err := s.agentCommand(p, pl.dir, paneVar(env, serverEnv))
			if err != nil && !errors.Is(err, errInMissingDir) {
				fail(err)
			}
			if !dirOK || err != nil {
				continue
			}
			if p.Worktree {
				wt, err := planWorktree(pl.dir, worktreeName(s, w, p))
				if err != nil {
					fail(err)
					continue
				}
				pl.wt = wt
				pl.runDir = wt.runDir()
			}
			pl.env = env
			pl.argv = s.paneCommand(o.Exe, p, agent)
			out = append(out, pl)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// onceEnv returns f's result, computed on first use.
func onceEnv(f func() map[string]string) func() map[string]string {
	var v map[string]string
	return func() map[string]string {
		if v == nil {
			v = f()
		}
		return v
	}
}

// paneVar looks a variable up as a pane's supervisor will see it: in the
// pane's own environment (the fleet's and the pane's env), else in the
// tmux server's.
func paneVar(env []string, server func() map[string]string) func(string) string {
	return func(key string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, key+"="); ok {
				return v
			}
		}
		return server()[key]
	}
}

// agentCommand is the executable a pane's supervisor will start: the
// pane's or the fleet's command, else $SUPERCLAUDE_AGENT as the pane will
// have it, else its profile's. A bare name must be on PATH; a relative
// path is made absolute against the pane's dir, where it was checked, so
// that a worktree pane runs the same file. It returns the command to pass
// to +run, "" to leave the choice to +run, which makes the same one.
func (s *Spec) agentCommand(p Pane, dir string, lookup func(string) string) (string, error) {
	cmd := firstNonEmpty(p.Command, s.Command)
	given := cmd != ""
	if !given {
		cmd = lookup(envvar.Agent)
	}
	if cmd == "" {
		if cmd = supervise.Profiles[s.agent(p)].Command; cmd == "" {
			return "", fmt.Errorf("agent %q has no default command: give the pane a command", s.agent(p))
		}
	}
	if strings.Contains(cmd, "/") && !filepath.IsAbs(cmd) && !isDir(dir) {
		// Relative to a directory that is missing: that is the problem.
		return "", errInMissingDir
	}
	found, err := findExecutable(cmd, lookup("PATH"), dir)
	if err != nil {
		return "", err
	}
	switch {
	case strings.Contains(cmd, "/"):
		return found, nil
	case given:
		return cmd, nil
	}
	return "", nil
}

// errInMissingDir is agentCommand's answer for a command relative to a
// pane directory that does not exist: plan has said so already.
var errInMissingDir = errors.New("the command is relative to a missing directory")

// isDir reports whether dir is a directory.
func isDir(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// findExecutable finds cmd as exec would from dir with PATH path
// (internal/lookpath), and says why not in a person's words, naming the
// command once.
func findExecutable(cmd, path, dir string) (string, error) {
	found, err := lookpath.Find(cmd, path, dir)
	switch {
	case err == nil, errors.Is(err, lookpath.ErrDot): // dir is the pane's, not ours
		return found, nil
	case errors.Is(err, lookpath.ErrNotFound):
		return "", fmt.Errorf("command %s is not found on PATH (%s)", cmd, path)
	}
	problem := "does not exist"
	switch {
	case errors.Is(err, syscall.EISDIR):
		problem = "is a directory"
	case errors.Is(err, os.ErrPermission):
		problem = "is not executable"
	}
	if !filepath.IsAbs(cmd) {
		// "command ./x, /dir/x, does not exist" read as a list.
		problem += " (from the pane's directory: " + filepath.Join(dir, cmd) + ")"
	}
	return "", fmt.Errorf("command %s %s", cmd, problem)
}
