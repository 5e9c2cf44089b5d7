package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/notify"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/supervise"
)

// notifier builds the supervisor's notifications from the person's
// config file (notify.ConfigPath): it returns the attention callback for
// supervise.Config and a wait for deliveries under way at exit. A config
// file with a mistake is said now, while the terminal is still ours, and
// notifications go on with the defaults.
func notifier(term *child.Terminal, log *slog.Logger) (func(supervise.Attention), func()) {
	cfg, err := notify.LoadConfig(notify.ConfigPath())
	if err != nil {
		fmt.Fprintf(os.Stderr, "superclaude: %v; notifications use the defaults\n", err)
		log.Warn("notify: the config file", "err", err)
		cfg = notify.DefaultConfig()
	}
	var sinks []notify.Sink
	if cfg.Desktop {
		sinks = append(sinks, notify.DesktopSink{})
	}
	if cfg.Terminal && term != nil {
		ts := notify.TerminalSink{Write: term.Notice, Term: os.Getenv("TERM")}
		if server, _, ok := tmux.Here(); ok {
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
	}
	return attend, func() { n.Wait(2 * time.Second) }
}
