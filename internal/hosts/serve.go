package hosts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/dashboard"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// ServeCommand is superclaude's hidden command that Serve answers in
// (remote.ServeCommand: the one the other machine runs over ssh).
const ServeCommand = remote.ServeCommand

// Serve answers the one request of superclaude on another machine on r
// (`superclaude +remote`, over ssh), on w.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ops, err := Ops()
	if err != nil {
		return err
	}
	return remote.Serve(ctx, r, w, Version(), ops)
}

// Ops are the requests this machine answers for superclaude on another
// one: a fleet's part up and down, its +status rows, the dashboard's, and
// whether it has a session, and the few commands it runs for another
// (runnable).
func Ops() (map[string]remote.Handler, error) {
	st, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	exe, err := config.Executable()
	if err != nil {
		return nil, err
	}
	side := fleet.HostSide{StateDir: st, Exe: exe, Server: func(s *fleet.Spec) tmux.Server { return fleet.Server("", s) }}
	src, err := dashboard.LocalSource(dashboard.Options{})
	if err != nil {
		return nil, err
	}
	ops := dashboard.HostOps(src)
	for op, h := range map[string]remote.Handler{
		fleet.OpUp:   remote.Op(func(_ context.Context, a fleet.UpArgs) (fleet.HostUp, error) { return side.Up(a) }),
		fleet.OpDown: remote.Op(func(_ context.Context, a fleet.DownArgs) (fleet.HostDown, error) { return side.Down(a) }),
		opStatus: remote.Op(func(_ context.Context, a statusArgs) ([]cli.SessionView, error) {
			return statusHere(side, a)
		}),
		opFind:       remote.Op(func(_ context.Context, a findArgs) (bool, error) { return findHere(a), nil }),
		remote.OpRun: remote.RunHandler(exe, runnable),
	} {
		ops[op] = h
	}
	return ops, nil
}

// statusHere is this machine's answer to another's +status: every session
// of the user's, or, when a names a fleet, those of its part here.
func statusHere(side fleet.HostSide, a statusArgs) ([]cli.SessionView, error) {
	dir := ""
	if a.Name != "" {
		var err error
		if dir, err = side.SessionsDir(a.Origin, a.Name); err != nil {
			return nil, err
		}
		if _, err := os.Stat(dir); err != nil {
			return []cli.SessionView{}, nil // that fleet has no sessions here
		}
	}
	stores, err := sessions.ViewStores(dir)
	if err != nil {
		return nil, err
	}
	return sessions.LocalViews(stores, nil), nil
}

// findHere reports whether this machine has the session (or, history, a
// session or pane with conversations) which names.
func findHere(a findArgs) bool {
	if a.History {
		cs, _, err := sessions.Conversations(a.Which)
		return err == nil && len(cs) > 0
	}
	stores, err := sessions.ViewStores("")
	if err != nil {
		return false
	}
	_, err = sessions.FindIn(stores, a.Which)
	return !errors.Is(err, state.ErrNoSession)
}

// runnable is what this machine runs for another (remote.OpRun): only
// +why, +history and +session restart, with --local, so that it never
// goes on to this machine's own hosts.
func runnable(args []string) ([]string, error) {
	n := 0
	switch {
	case len(args) >= 1 && (args[0] == "+why" || args[0] == "+history"):
		n = 1
	case len(args) >= 2 && args[0] == "+session" && args[1] == "restart":
		n = 2
	default:
		return nil, fmt.Errorf("superclaude +remote runs only +why, +history and +session restart for another host, not %q", args)
	}
	return append(append(append([]string{}, args[:n]...), "--local"), args[n:]...), nil
}
