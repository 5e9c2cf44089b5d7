package logfile

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/termtext"
)

// Logger opens the log in the user's state directory (config.StateDir)
// for this process: a supervisor for its run, a status line or a hook for
// one line. Every line names the process (supervisor=PID). Logs never go
// to the terminal, which the agent owns; when the log cannot be opened
// that is said on stderr once and the lines are dropped. Close the log
// with the function returned.
func Logger() (*slog.Logger, func()) {
	dir, err := config.StateDir()
	var f *File
	if err == nil {
		f, err = Open(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "superclaude: no log file:", termtext.Clean(err.Error()))
		return slog.New(slog.DiscardHandler), func() {}
	}
	log := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})).With("supervisor", os.Getpid())
	return log, func() { f.Close() }
}

// Where is the log's path in the user's state directory, for a message
// that sends the person there; "(none)" without a state directory.
func Where() string {
	dir, err := config.StateDir()
	if err != nil {
		return "(none)"
	}
	return DefaultPath(dir)
}
