// Package config owns how superclaude finds its surroundings: the
// environment variables it sets for the agent and reads back in the
// agent's children, the sessions directory, the log directory, and who the
// calling supervisor and pane are.
package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/tmux"
)

// Environment variables. The supervisor sets the first four in the agent's
// environment; Claude Code passes them on to its status line, hooks and
// Bash tool.
const (
	// EnvSupervisorPID is the seeds' name for the supervisor's PID.
	EnvSupervisorPID = "CLAUDE_SUPERVISOR_PID"
	// EnvSupervisor is the supervisor's full identity (pid:start:boot),
	// so that children can verify the PID before trusting it.
	EnvSupervisor = "SUPERCLAUDE_SUPERVISOR"
	// EnvSocket is the path of the supervisor's control socket.
	EnvSocket = "SUPERCLAUDE_SOCKET"
	// EnvSessionsDir is the sessions directory (default ./sessions).
	EnvSessionsDir = "SUPERCLAUDE_SESSIONS_DIR"
	// EnvPaneID overrides the pane identity. The supervisor sets it to the
	// identity it found at start, so that hooks need not ask tmux.
	EnvPaneID = "SUPERCLAUDE_PANE_ID"
	// EnvStateDir overrides where logs go.
	EnvStateDir = "SUPERCLAUDE_STATE_DIR"
	// EnvWatchdogPID is the seeds' name for the process that restarts the
	// agent on SIGUSR1 (`kill -USR1 $WATCHDOG_PID` in session.sh): the
	// supervisor, which does.
	EnvWatchdogPID = "WATCHDOG_PID"
)

// SessionsDir returns the sessions directory: $SUPERCLAUDE_SESSIONS_DIR,
// else ./sessions as in the seeds.
func SessionsDir() (string, error) {
	if d := os.Getenv(EnvSessionsDir); d != "" {
		return filepath.Abs(d)
	}
	return filepath.Abs("sessions")
}

// StateDir returns where superclaude keeps logs: $SUPERCLAUDE_STATE_DIR,
// else $XDG_STATE_HOME/superclaude, else ~/.local/state/superclaude.
func StateDir() (string, error) {
	if d := os.Getenv(EnvStateDir); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "superclaude"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "superclaude"), nil
}

// PaneID returns this process's pane identity: $SUPERCLAUDE_PANE_ID when
// set, else what tmux says, else "".
func PaneID(ctx context.Context) (string, error) {
	if v, ok := os.LookupEnv(EnvPaneID); ok {
		return v, nil
	}
	return tmux.PaneID(ctx)
}

// ErrNoSupervisor reports that the environment names no live supervisor.
var ErrNoSupervisor = errors.New("no supervisor in the environment")

// Supervisor returns the verified identity of the supervisor named by the
// environment: $SUPERCLAUDE_SUPERVISOR when set (checked against the live
// process), else $CLAUDE_SUPERVISOR_PID (its current holder).
func Supervisor() (proc.Identity, error) {
	if v := os.Getenv(EnvSupervisor); v != "" {
		id, err := proc.Parse(v)
		if err != nil {
			return proc.Identity{}, fmt.Errorf("$%s: %w", EnvSupervisor, err)
		}
		if err := id.Verify(); err != nil {
			return proc.Identity{}, fmt.Errorf("$%s names pid %d: %w", EnvSupervisor, id.PID, err)
		}
		return id, nil
	}
	if v := os.Getenv(EnvSupervisorPID); v != "" {
		pid, err := strconv.Atoi(v)
		if err != nil || pid <= 0 {
			return proc.Identity{}, fmt.Errorf("$%s=%q is not a pid", EnvSupervisorPID, v)
		}
		id, err := proc.Of(pid)
		if err != nil {
			return proc.Identity{}, fmt.Errorf("$%s names pid %d: %w", EnvSupervisorPID, pid, err)
		}
		return id, nil
	}
	return proc.Identity{}, ErrNoSupervisor
}

// Owner returns who owns a session a command activates: the supervisor
// named by the environment, or — as seed 000 §2 falls back to $PPID — the
// calling process's parent.
func Owner() (proc.Identity, error) {
	id, err := Supervisor()
	if err == nil || !errors.Is(err, ErrNoSupervisor) {
		return id, err
	}
	return proc.Of(os.Getppid())
}
