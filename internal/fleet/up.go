package fleet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/tmux"
)

// Options are how a fleet is brought up and down.
type Options struct {
	// Tmux is the tmux server the fleet lives on.
	Tmux tmux.Server
	// Exe is the superclaude binary each pane runs.
	Exe string
	// Env is added to every pane's environment.
	Env []string
	// Grace is how long a supervisor gets to stop before it is killed.
	Grace time.Duration
}

// PaneCommand is the command a pane runs: superclaude with the pane's
// agent and arguments, as an argument vector that tmux executes directly,
// never through a shell.
func (s *Spec) PaneCommand(exe string, p Pane) []string {
	argv := []string{exe, "+run", "--profile", s.agent(p)}
	if cmd := firstNonEmpty(p.Command, s.Command); cmd != "" {
		argv = append(argv, "--agent", cmd)
	}
	return append(append(argv, "--"), p.Args...)
}

// PaneEnv is a pane's environment on top of the tmux server's: the fleet's
// and the pane's own variables, the sessions directory, and the pane's
// identity — given outright, so that a supervisor never reads the label
// before up has set it.
func (s *Spec) PaneEnv(w Window, p Pane, extra []string) []string {
	m := map[string]string{}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	for k, v := range s.Env {
		m[k] = v
	}
	for k, v := range p.Env {
		m[k] = v
	}
	m[config.EnvSessionsDir] = s.SessionsDir()
	m[config.EnvPaneID] = s.PaneID(w, p)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// ErrUp reports that the fleet's tmux session already exists.
var ErrUp = errors.New("the fleet is already up")

// Up creates the fleet's tmux session: its windows and panes, each pane
// labelled with @pane_label and running one superclaude. Each supervisor
// finds its pane's session and resumes its conversation unless that
// overflowed (S3, S9).
func Up(s *Spec, o Options) error {
	if o.Tmux.HasSession(s.Name) {
		return fmt.Errorf("%w: tmux session %q exists (superclaude +down first)", ErrUp, s.Name)
	}
	if err := os.MkdirAll(s.SessionsDir(), 0o700); err != nil {
		return err
	}
	for wi, w := range s.Windows {
		var window string
		for pi, p := range w.Panes {
			dir := s.PaneDir(w, p)
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				o.Tmux.Run("kill-session", "-t", "="+s.Name)
				return fmt.Errorf("window %q pane %q: working directory %s does not exist", w.Name, p.Label, dir)
			}
			args := []string{}
			switch {
			case wi == 0 && pi == 0:
				args = append(args, "new-session", "-d", "-s", s.Name, "-n", w.Name, "-x", "200", "-y", "50")
			case pi == 0:
				args = append(args, "new-window", "-d", "-t", "="+s.Name+":", "-n", w.Name)
			default:
				args = append(args, "split-window", "-d", "-t", window)
			}
			args = append(args, "-c", dir, "-P", "-F", "#{window_id} #{pane_id}")
			for _, kv := range s.PaneEnv(w, p, o.Env) {
				args = append(args, "-e", kv)
			}
			args = append(args, "--")
			args = append(args, s.PaneCommand(o.Exe, p)...)
			out, err := o.Tmux.Run(args...)
			if err != nil {
				o.Tmux.Run("kill-session", "-t", "="+s.Name)
				return err
			}
			ids := strings.Fields(out)
			if len(ids) != 2 {
				return fmt.Errorf("tmux: unexpected pane description %q", out)
			}
			window = ids[0]
			if _, err := o.Tmux.Run("set-option", "-p", "-t", ids[1], tmux.LabelOption, p.Label); err != nil {
				return err
			}
			if pi > 0 {
				o.Tmux.Run("select-layout", "-t", window, "tiled")
			}
		}
		// A pane whose superclaude failed stays open to show why.
		o.Tmux.Run("set-option", "-w", "-t", window, "remain-on-exit", "failed")
	}
	return nil
}

// DownReport says what Down did.
type DownReport struct {
	Stopped, Killed int
}

// Down stops the fleet in order: every pane's supervisor is asked to stop
// (last pane first) — each stops its agent gracefully and sweeps what the
// agent left — Down waits for all of them, kills any that outlive the
// grace together with their process trees, and then removes the tmux
// session. Nothing of the fleet's is left running.
func Down(name string, o Options) (DownReport, error) {
	var rep DownReport
	panes, err := o.Tmux.Panes(name)
	if err != nil {
		if !o.Tmux.HasSession(name) {
			return rep, fmt.Errorf("fleet %q is not up: no tmux session", name)
		}
		return rep, err
	}
	grace := o.Grace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	var sups []proc.Identity
	for i := len(panes) - 1; i >= 0; i-- {
		p := panes[i]
		if p.Dead || p.PID <= 0 {
			continue
		}
		id, err := proc.Of(p.PID)
		if err != nil {
			continue
		}
		sups = append(sups, id)
		if !askStop(id) {
			proc.Signal(id, syscall.SIGTERM)
		}
	}
	deadline := time.Now().Add(grace)
	for _, id := range sups {
		for proc.Alive(id) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if proc.Alive(id) {
			proc.KillTree(context.Background(), id, proc.KillOptions{Grace: time.Second})
			rep.Killed++
		} else {
			rep.Stopped++
		}
	}
	if _, err := o.Tmux.Run("kill-session", "-t", "="+name); err != nil && o.Tmux.HasSession(name) {
		return rep, err
	}
	return rep, nil
}

// askStop asks the supervisor with identity id, over its control socket,
// to stop; it reports whether the request was taken.
func askStop(id proc.Identity) bool {
	sock, err := control.SocketPath(id.PID)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = control.Call(ctx, sock, id, control.Request{Op: control.OpStop, Reason: "fleet down"})
	return err == nil
}
