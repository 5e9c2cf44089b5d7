package claude

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
)

// What a running Claude Code says it is doing, in
// $CLAUDE_CONFIG_DIR/sessions/<pid>.json (measured in
// docs/claude-code-limits.md, section 6).
const (
	StatusIdle    = "idle"    // at its prompt, waiting for the user's next one
	StatusBusy    = "busy"    // a turn is under way
	StatusWaiting = "waiting" // it asks the user something (a permission dialog …)
)

// AgentStatus reads what the claude process pid (started at start, in the
// unit of proc.Identity.Start) says it is doing: idle, busy or waiting, from
// its sessions/<pid>.json under configDir. A file left by an earlier
// process that had the same pid (claude leaves it behind when SIGKILLed)
// is not believed: on Linux its procStart must be the process's start.
// The file is opened without blocking and must be a small regular file.
// A file that says no status yet is "" and no error.
func AgentStatus(configDir string, pid int, start uint64) (string, error) {
	path := AgentStatusFile(configDir, pid)
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return "", err
	}
	var v struct {
		PID       int    `json:"pid"`
		ProcStart string `json:"procStart"`
		Status    string `json:"status"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if v.PID != pid {
		return "", fmt.Errorf("%s names pid %d", path, v.PID)
	}
	if runtime.GOOS == "linux" && start != 0 && v.ProcStart != strconv.FormatUint(start, 10) {
		return "", fmt.Errorf("%s was left by an earlier process with pid %d", path, pid)
	}
	switch v.Status {
	case StatusIdle, StatusBusy, StatusWaiting:
		return v.Status, nil
	case "":
		// Written as claude starts, before it says anything (seen once,
		// under load): not a status to show, nor an unreadable one.
		return "", nil
	}
	return "", fmt.Errorf("%s: unknown status %q", path, v.Status)
}

// AgentStatusFile is where the claude process pid says what it is doing:
// sessions/<pid>.json under configDir.
func AgentStatusFile(configDir string, pid int) string {
	return filepath.Join(configDir, "sessions", strconv.Itoa(pid)+".json")
}

// ConfigDirOf is claude's configuration directory for an agent started
// with env: its $CLAUDE_CONFIG_DIR, else ~/.claude.
func ConfigDirOf(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := cutEnv(env[i], "CLAUDE_CONFIG_DIR"); ok && v != "" {
			return v
		}
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := cutEnv(env[i], "HOME"); ok && v != "" {
			return filepath.Join(v, ".claude")
		}
	}
	return ConfigDir()
}

func cutEnv(kv, key string) (string, bool) {
	if len(kv) > len(key) && kv[:len(key)] == key && kv[len(key)] == '=' {
		return kv[len(key)+1:], true
	}
	return "", false
}
