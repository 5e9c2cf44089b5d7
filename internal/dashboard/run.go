package dashboard

import (
	"context"
	"errors"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/tmux"
)

// Options are `+dashboard`'s flags.
type Options struct {
	// Refresh is the interval between readings.
	Refresh time.Duration
	// Sessions, when given, are the only sessions roots read; else every
	// root the user's index knows, the current one and the user's own.
	Sessions []string
	// TmuxSockets are tmux servers to look for panes on (a name, or a
	// socket path when it holds a '/'), besides the ones found by
	// themselves.
	TmuxSockets []string
	// Hosts, when it names any, are other hosts whose sessions are shown
	// too (HostsSource).
	Hosts Hosts
}

// ErrNoTerminal reports that the dashboard was asked for without a
// terminal to draw on.
var ErrNoTerminal = errors.New("the dashboard needs a terminal; for a listing use +status")

// Run shows the dashboard on the terminal until the person quits or ctx
// ends.
func Run(ctx context.Context, o Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		return ErrNoTerminal
	}
	local, err := LocalSource(o)
	if err != nil {
		return err
	}
	var src Source = local
	if len(o.Hosts.Hosts) > 0 && len(o.Sessions) == 0 {
		if o.Hosts.Timeout <= 0 {
			o.Hosts.Timeout = max(o.Refresh, DefaultRefresh)
		}
		src = &HostsSource{Local: local, Hosts: o.Hosts}
	}
	m := New(Config{Source: src, Refresh: o.Refresh, Context: ctx})
	// The alternate screen is the View's to ask for (Model.View).
	_, err = tea.NewProgram(m, tea.WithContext(ctx)).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// LocalSource builds the real source of this machine's sessions for the
// options, from the user's configuration: the lookup index, the current
// and the user's sessions directories, this terminal's tmux.
func LocalSource(o Options) (*StoreSource, error) {
	idx, err := config.IndexDir()
	if err != nil {
		return nil, err
	}
	c := StoreConfig{IndexDir: idx, Only: o.Sessions,
		Client: os.Getenv("TMUX"), ClientPane: os.Getenv("TMUX_PANE")}
	for _, dir := range []func() (string, error){config.SessionsDir, config.UserSessionsDir} {
		d, err := dir()
		if err != nil {
			return nil, err
		}
		c.Roots = append(c.Roots, d)
	}
	for _, s := range o.TmuxSockets {
		c.Tmux = append(c.Tmux, tmux.ParseSocket(s))
	}
	return NewStoreSource(c), nil
}
