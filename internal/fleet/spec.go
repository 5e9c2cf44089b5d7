// Package fleet owns fleets: a declarative file of tmux windows and panes,
// each pane running one superclaude with its own agent, and the bringing
// up and down of the tmux session that holds them.
//
// The file is TOML. A fleet is something people write by hand and edit
// often; TOML has no significant indentation to get wrong (YAML's trap),
// comments (JSON has none), and github.com/BurntSushi/toml, a parser that
// has been the Go standard for years, reports errors with line numbers and
// lets unknown keys be caught, so a misspelt key is an error, not a silent
// default.
//
//	name = "work"                  # the tmux session
//	dir = "~/src"                  # default working directory
//	sessions = "~/src/sessions"    # where the panes' sessions live
//	socket = "work"                # the tmux server (-L name, or -S path with a '/')
//
//	[[window]]
//	name = "company"
//
//	  [[window.pane]]
//	  label = "SDK"                # stable identity: work:company:SDK
//	  dir = "sdk"                  # relative to the fleet's dir
//	  agent = "claude"             # profile: claude, codex, gemini, opencode, aider, generic
//	  args = ["--model", "opus"]
//	  command = "/opt/bin/claude"  # optional: the executable
//	  env = { FOO = "bar" }
//	  worktree = true              # run in a git worktree of its own
//	  host = "me@buildbox"         # run on another machine, over ssh (hosts.go)
//
// The README's Fleets section documents every key; a test holds it to the
// struct tags below.
package fleet

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/safefs"
	"github.com/superclaude/superclaude/supervise"
)

// Spec is a fleet file.
type Spec struct {
	Name     string            `toml:"name"`
	Dir      string            `toml:"dir"`
	Sessions string            `toml:"sessions"`
	Socket   string            `toml:"socket"`
	Agent    string            `toml:"agent"`
	Command  string            `toml:"command"`
	Env      map[string]string `toml:"env"`
	Resume   string            `toml:"resume"`
	Windows  []Window          `toml:"window"`

	// File is where the spec was read from.
	File string `toml:"-"`
}

// Window is one tmux window.
type Window struct {
	Name string `toml:"name"`
	Dir  string `toml:"dir"`
	// Host is the ssh destination the window's panes run on ("" for this
	// machine): see hosts.go.
	Host  string `toml:"host"`
	Panes []Pane `toml:"pane"`
}

// Pane is one pane: one superclaude and its agent.
type Pane struct {
	Label    string            `toml:"label"`
	Dir      string            `toml:"dir"`
	Agent    string            `toml:"agent"`
	Command  string            `toml:"command"`
	Args     []string          `toml:"args"`
	Env      map[string]string `toml:"env"`
	Worktree bool              `toml:"worktree"`
	Resume   string            `toml:"resume"`
	// Host is the ssh destination the pane runs on, instead of its
	// window's.
	Host string `toml:"host"`
}

// whyPlainNames says why a fleet's name, its windows' names and its panes'
// labels are held to letters, digits, '-' and '_': together they are the
// pane's identity, session:window:label, which tmux reads as a target
// (':' and '.' separate its parts, '=' and '^' mean more), and they name
// the pane's session, its worktree's directory and its git branch (where
// '/', '..', a space or a control character break or escape). The rest of
// a fleet file — directories, arguments, env — may hold anything, and
// reaches a host as data.
const whyPlainNames = "it is part of the pane's identity session:window:label, of tmux's target names, " +
	"and of its session's name, worktree directory and git branch, none of which can hold other characters safely"

var (
	// Compiled on first use: every superclaude process links this
	// package, and few read a fleet file.
	nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })
	envRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// maxFleetFile bounds a fleet file: a few KiB for the largest fleet.
const maxFleetFile = 1 << 20

// Load reads and checks a fleet file. Errors name the file and, where they
// can, the line or the window and pane.
func Load(path string) (*Spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	// A fleet file is something people clone: a link to /dev/zero or to
	// a FIFO there must neither fill the memory nor hang.
	b, err := safefs.ReadRegular(abs, maxFleetFile, "a fleet file")
	if errors.Is(err, fs.ErrNotExist) {
		// It said "fleet file F: open F: no such file or directory".
		return nil, fmt.Errorf("there is no fleet file %s", path)
	}
	if err != nil {
		return nil, fmt.Errorf("fleet file %s: %w", path, err)
	}
	var s Spec
	md, err := toml.Decode(string(b), &s)
	if err != nil {
		return nil, fmt.Errorf("fleet file %s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, fmt.Errorf("fleet file %s: unknown key %q", path, undecoded[0].String())
	}
	s.File = abs
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("fleet file %s: %w", path, err)
	}
	return &s, nil
}

func (s *Spec) check() error {
	if !nameRE().MatchString(s.Name) {
		return fmt.Errorf("name %q: only letters, digits, '-' and '_' (%s)", s.Name, whyPlainNames)
	}
	if err := checkEnv("env", s.Env); err != nil {
		return err
	}
	if err := checkResume("resume", s.Resume); err != nil {
		return err
	}
	if len(s.Windows) == 0 {
		return fmt.Errorf("no [[window]]")
	}
	windows := map[string]bool{}
	for wi, w := range s.Windows {
		if !nameRE().MatchString(w.Name) {
			return fmt.Errorf("window %d: name %q: only letters, digits, '-' and '_' (%s)", wi+1, w.Name, whyPlainNames)
		}
		if windows[w.Name] {
			return fmt.Errorf("window %q appears twice", w.Name)
		}
		windows[w.Name] = true
		if len(w.Panes) == 0 {
			return fmt.Errorf("window %q has no [[window.pane]]", w.Name)
		}
		if w.Host != "" {
			if err := remote.CheckDestination(w.Host); err != nil {
				return fmt.Errorf("window %q: %w", w.Name, err)
			}
		}
		labels := map[string]bool{}
		for pi, p := range w.Panes {
			where := fmt.Sprintf("window %q pane %d", w.Name, pi+1)
			if !nameRE().MatchString(p.Label) {
				return fmt.Errorf("%s: label %q: only letters, digits, '-' and '_' (%s)", where, p.Label, whyPlainNames)
			}
			if labels[p.Label] {
				return fmt.Errorf("%s: label %q appears twice in the window", where, p.Label)
			}
			labels[p.Label] = true
			if a := s.agent(p); supervise.Profiles[a].Name == "" {
				return fmt.Errorf("%s: unknown agent %q (have %s)", where, a, supervise.ProfileNames())
			}
			if err := checkResume(where+": resume", p.Resume); err != nil {
				return err
			}
			if err := checkEnv(where+": env", p.Env); err != nil {
				return err
			}
			if p.Host != "" {
				if err := remote.CheckDestination(p.Host); err != nil {
					return fmt.Errorf("%s: %w", where, err)
				}
			}
		}
	}
	return nil
}

// checkEnv refuses variable names a process environment cannot carry and
// values with a NUL, which no exec can pass.
func checkEnv(where string, env map[string]string) error {
	for k, v := range env {
		if !envRE().MatchString(k) {
			return fmt.Errorf("%s: variable name %q: want letters, digits and '_', not starting with a digit", where, k)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("%s: %s holds a NUL character", where, k)
		}
	}
	return nil
}

func (s *Spec) agent(p Pane) string {
	switch {
	case p.Agent != "":
		return p.Agent
	case s.Agent != "":
		return s.Agent
	default:
		return "claude"
	}
}

// PaneID is a pane's identity: session:window:label, what superclaude's
// pane lookup finds its session by.
func (s *Spec) PaneID(w Window, p Pane) string { return s.Name + ":" + w.Name + ":" + p.Label }

// base is the fleet's directory: its dir key, else the file's directory.
func (s *Spec) base() string {
	fileDir := filepath.Dir(s.File)
	if s.Dir == "" {
		return fileDir
	}
	return resolve(s.Dir, fileDir)
}

// SessionsDir is where the fleet's sessions live: its sessions key, else
// sessions/ beside the fleet file. One directory for the whole fleet, so
// that `superclaude +status` sees every pane.
func (s *Spec) SessionsDir() string {
	if s.Sessions != "" {
		return resolve(s.Sessions, filepath.Dir(s.File))
	}
	return filepath.Join(filepath.Dir(s.File), "sessions")
}

// PaneDir is the working directory of a pane.
func (s *Spec) PaneDir(w Window, p Pane) string {
	dir := s.base()
	if w.Dir != "" {
		dir = resolve(w.Dir, dir)
	}
	if p.Dir != "" {
		dir = resolve(p.Dir, dir)
	}
	return dir
}

// resolve expands a leading ~ and makes path absolute against base.
func resolve(path, base string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, strings.TrimPrefix(path, "~"))
		}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	return filepath.Clean(path)
}

// checkResume checks a resume policy: auto, ask, never, or unset.
func checkResume(where, v string) error {
	switch v {
	case "", "auto", "ask", "never":
		return nil
	}
	return fmt.Errorf("%s %q: want auto, ask or never", where, v)
}
