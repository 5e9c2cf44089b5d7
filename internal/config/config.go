// Package config owns how superclaude finds its surroundings: the sessions
// directory, the log directory, and who the calling supervisor and pane
// are, from the environment superclaude set for the agent (its names are
// internal/envvar's) and tmux.
package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/safefs"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
)

// SessionsDir returns the sessions directory a supervisor keeps its
// sessions in, by this rule:
//
//  1. $SUPERCLAUDE_SESSIONS_DIR, when set (a fleet sets it for its panes,
//     and the supervisor for its agent's children);
//  2. ./sessions, when the working directory has one (a directory, not a
//     symbolic link): the seeds' layout, a project that keeps its
//     sessions beside its code;
//  3. else the user's own, <state dir>/sessions: superclaude leaves
//     nothing in a directory that has no use for sessions.
//
// A skill that names a project's directory (`+session activate
// sessions/X`) creates it there whatever this says (unless sessions is a
// link: sessions.ActivateTarget); the lookup index
// (IndexDir) finds sessions in every root.
func SessionsDir() (string, error) {
	dir, _, err := SessionsDirWhy()
	return dir, err
}

// SessionsDirWhy is SessionsDir, and why a project's ./sessions was passed
// over ("" when it was not): one that belongs to another user, or that
// every user may write to, could hold state that steers the agent (a
// restart prompt, a conversation to resume), so the user's own sessions
// directory is used instead, and the caller says so.
func SessionsDirWhy() (dir, why string, err error) {
	if d := os.Getenv(envvar.SessionsDir); d != "" {
		dir, err = filepath.Abs(d)
		return dir, "", err
	}
	// Lstat: a cloned repository can ship sessions -> /elsewhere, and
	// nothing the user chose would then send state there. A link is used
	// only when named in $SUPERCLAUDE_SESSIONS_DIR.
	if fi, err := os.Lstat("sessions"); err == nil && fi.IsDir() {
		if err := safefs.CheckPath("sessions"); err != nil {
			why = err.Error()
		} else {
			dir, err = filepath.Abs("sessions")
			return dir, "", err
		}
	}
	dir, err = UserSessionsDir()
	return dir, why, err
}

// UserSessionsDir is the user's own sessions directory: <state
// dir>/sessions.
func UserSessionsDir() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sessions"), nil
}

// IndexDir is the user's session lookup index, shared by every sessions
// root: <state dir>/index.
func IndexDir() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "index"), nil
}

// FleetsDir is where +up records where each fleet runs (fleet.Record):
// <state dir>/fleets.
func FleetsDir() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "fleets"), nil
}

// StateDir returns where superclaude keeps logs: $SUPERCLAUDE_STATE_DIR,
// else $XDG_STATE_HOME/superclaude, else ~/.local/state/superclaude.
func StateDir() (string, error) {
	if d := os.Getenv(envvar.StateDir); d != "" {
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
	if v, ok := os.LookupEnv(envvar.PaneID); ok {
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
	if v := os.Getenv(envvar.Supervisor); v != "" {
		id, err := proc.Parse(v)
		if err != nil {
			return proc.Identity{}, fmt.Errorf("$%s: %w", envvar.Supervisor, err)
		}
		if err := id.Verify(); err != nil {
			return proc.Identity{}, fmt.Errorf("$%s names pid %d: %w", envvar.Supervisor, id.PID, err)
		}
		return id, nil
	}
	if v := os.Getenv(envvar.SupervisorPID); v != "" {
		pid, err := strconv.Atoi(v)
		if err != nil || pid <= 0 {
			return proc.Identity{}, fmt.Errorf("$%s=%q is not a pid", envvar.SupervisorPID, v)
		}
		id, err := proc.Of(pid)
		if err != nil {
			return proc.Identity{}, fmt.Errorf("$%s names pid %d: %w", envvar.SupervisorPID, pid, err)
		}
		return id, nil
	}
	return proc.Identity{}, ErrNoSupervisor
}

// Owner returns who owns a session a command activates: the supervisor
// named by the environment, or — as the replaced scripts fell back to
// $PPID — the calling process's parent.
func Owner() (proc.Identity, error) {
	return OwnerOf(Supervisor())
}

// OwnerOf is Owner for a caller that has asked Supervisor already, with its
// answer: the supervisor is not read and verified again. Either way, an
// owner returned without an error was found alive just now.
func OwnerOf(sup proc.Identity, err error) (proc.Identity, error) {
	if err == nil || !errors.Is(err, ErrNoSupervisor) {
		return sup, err
	}
	return proc.Of(os.Getppid())
}

// Executable is this program's path, links resolved: what a fleet's panes
// and another host's requests run, and what +doctor compares with the
// superclaude PATH finds.
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return exe, nil
}
