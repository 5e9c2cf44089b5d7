package dashboard

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
)

// Attach shows the session's pane (tmux.Server.AttachFrom): inside a
// client of the pane's own server it switches that client to the pane;
// outside tmux, or inside another tmux server, it returns the tmux client
// to run in the foreground (nested in the dashboard's pane, in the second
// case, with the keys that detach it on its status line), and the
// dashboard comes back when the person detaches.
func (s *StoreSource) Attach(ctx context.Context, r Row) (*exec.Cmd, error) {
	srv, pane, err := s.findPane(r)
	if err != nil {
		return nil, err
	}
	// Make the pane the current one of its window and session, so that a
	// client shown that session sees it.
	if _, err := srv.Run("select-window", "-t", pane); err != nil {
		return nil, err
	}
	if _, err := srv.Run("select-pane", "-t", pane); err != nil {
		return nil, err
	}
	a, err := srv.AttachFrom(pane, tmux.Client{TMUX: s.cfg.Client, Pane: s.cfg.ClientPane})
	return a.Cmd, err
}

// findPane finds the tmux server and pane (%N) of a session.
//
// An unlabelled pane's identity names its server and that server's start
// time. A labelled one (session:window:label) names no server: the pane is
// looked for on the server its supervisor runs in ($TMUX in the
// supervisor's environment, read from the verified process), then on the
// servers the dashboard was given, then on its own and the default one.
// On each, the pane whose process is the supervisor wins; failing that,
// the pane that carries the label.
func (s *StoreSource) findPane(r Row) (tmux.Server, string, error) {
	if r.Pane == "" {
		return tmux.Server{}, "", fmt.Errorf("session %s has no pane", r.Session)
	}
	if !tmux.Labelled(r.Pane) {
		return unlabelledPane(r.Pane)
	}
	var servers []tmux.Server
	if r.Supervisor.PID > 0 {
		if v, ok, err := proc.Getenv(r.Supervisor, "TMUX"); err == nil && ok {
			if sock, _, _ := strings.Cut(v, ","); sock != "" {
				servers = append(servers, tmux.Server{Path: sock})
			}
		}
	}
	servers = append(servers, s.cfg.Tmux...)
	if sock, _, _ := strings.Cut(s.cfg.Client, ","); sock != "" {
		servers = append(servers, tmux.Server{Path: sock})
	}
	servers = append(servers, tmux.Server{})
	alive := proc.Alive(r.Supervisor)
	tried := map[tmux.Server]bool{}
	for _, srv := range servers {
		if tried[srv] {
			continue
		}
		tried[srv] = true
		out, err := srv.Run("list-panes", "-a", "-F", "#{pane_id}\t#{pane_pid}\t#{session_name}:#{window_name}:#{"+tmux.LabelOption+"}")
		if err != nil {
			continue
		}
		labelled := ""
		for _, line := range strings.Split(out, "\n") {
			f := strings.SplitN(line, "\t", 3)
			if len(f) != 3 {
				continue
			}
			if pid, _ := strconv.Atoi(f[1]); alive && pid == r.Supervisor.PID {
				return srv, f[0], nil
			}
			if f[2] == r.Pane && labelled == "" {
				labelled = f[0]
			}
		}
		if labelled != "" {
			return srv, labelled, nil
		}
	}
	return tmux.Server{}, "", fmt.Errorf("pane %s is on no tmux server found (give its server with --tmux-socket)", r.Pane)
}

// unlabelledPane resolves "%N@<socket>@<start time>": the pane %N of the
// server on that socket, provided it is the same server (started then).
func unlabelledPane(id string) (tmux.Server, string, error) {
	pane, socket, start, ok := tmux.Unlabelled(id)
	if !ok {
		return tmux.Server{}, "", fmt.Errorf("pane identity %q: want %%N@socket@start", id)
	}
	srv := tmux.Server{Path: socket}
	started, err := srv.Run("display-message", "-p", "-t", pane, "#{start_time}")
	if err != nil {
		return tmux.Server{}, "", fmt.Errorf("pane %s: its tmux server is gone: %w", pane, err)
	}
	if started != start {
		return tmux.Server{}, "", fmt.Errorf("pane %s: its tmux server (%s) was restarted since; the pane is gone", pane, socket)
	}
	return srv, pane, nil
}
