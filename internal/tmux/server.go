package tmux

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Server is one tmux server: the default one, or the one listening on
// Socket (tmux -S).
type Server struct {
	Socket string
}

// Run runs a tmux command and returns its output without the trailing
// newline.
func (s Server) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	full := args
	if s.Socket != "" {
		full = append([]string{"-S", s.Socket}, args...)
	}
	out, err := exec.CommandContext(ctx, "tmux", full...).CombinedOutput()
	text := strings.TrimRight(string(out), "\n")
	if err != nil {
		return text, fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, text)
	}
	return text, nil
}

// HasSession reports whether the server has a session of that name.
func (s Server) HasSession(name string) bool {
	_, err := s.Run("has-session", "-t", "="+name)
	return err == nil
}

// PaneInfo is one pane as list-panes reports it.
type PaneInfo struct {
	ID, Window, Label string
	PID               int
	Dead              bool
}

// Panes lists the panes of a session.
func (s Server) Panes(session string) ([]PaneInfo, error) {
	out, err := s.Run("list-panes", "-s", "-t", "="+session, "-F",
		"#{pane_id}\t#{window_name}\t#{"+LabelOption+"}\t#{pane_pid}\t#{pane_dead}")
	if err != nil {
		return nil, err
	}
	var panes []PaneInfo
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			continue
		}
		var pid int
		fmt.Sscan(f[3], &pid)
		panes = append(panes, PaneInfo{ID: f[0], Window: f[1], Label: f[2], PID: pid, Dead: f[4] == "1"})
	}
	return panes, nil
}
