package launch

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/internal/notify"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/supervise"
)

// notifyConfig reads the person's config file (notify.ConfigPath). A
// file with a mistake gives the defaults and the problem, in words, for
// the person to be told before the agent owns the terminal
// (sayConfigProblem); "" when there is none.
func notifyConfig(log *slog.Logger) (notify.Config, string) {
	cfg, err := notify.LoadConfig(notify.ConfigPath())
	if err != nil {
		log.Warn("notify: the config file", "err", err)
		return notify.DefaultConfig(), err.Error()
	}
	return cfg, ""
}

// notifier builds the supervisor's notifications from cfg: it returns
// the attention callback for supervise.Config and a wait for deliveries
// under way at exit. store is the supervisor's sessions, where a fleet's
// panes are read for "fleet all idle".
func notifier(cfg notify.Config, term *child.Terminal, store *state.Store, log *slog.Logger) (func(supervise.Attention), func()) {
	var sinks []notify.Sink
	if cfg.Desktop {
		sinks = append(sinks, notify.DesktopSink{})
	}
	server, _, inTmux := tmux.Here()
	if cfg.Terminal && term != nil {
		ts := notify.TerminalSink{Write: term.Notice, Term: os.Getenv("TERM")}
		if inTmux {
			ts.InTmux = true
			v, _ := server.Run("show-options", "-gv", "allow-passthrough")
			ts.Passthrough = strings.TrimSpace(v) == "on" || strings.TrimSpace(v) == "all"
		}
		sinks = append(sinks, ts)
	}
	if cfg.UseCommand && len(cfg.Command) > 0 {
		sinks = append(sinks, notify.CommandSink{Argv: cfg.Command})
	}
	dir, err := config.StateDir()
	if err != nil || len(sinks) == 0 {
		return nil, func() {}
	}
	n := notify.New(cfg, filepath.Join(dir, "notify"), log, sinks...)
	host, _ := os.Hostname()
	attend := func(a supervise.Attention) {
		n.Post(notify.Event{Kind: a.Kind, Session: a.Session, Host: host, Pane: a.Pane, Want: a.Want, Until: a.Until})
		if a.Kind == supervise.AttentionTurnEnded && cfg.On(notify.FleetIdle) && inTmux {
			// It lists the fleet's panes and reads their sessions: not
			// in the supervisor's own goroutine.
			guard.Go(func() {
				if name, ok := fleet.AllIdle(server, store, a.Pane); ok {
					n.Post(notify.Event{Kind: notify.FleetIdle, Session: name, Host: host,
						Want: "every agent of fleet " + name + " is idle at its prompt"})
				}
			})
		}
	}
	return attend, func() { n.Wait(2 * time.Second) }
}
