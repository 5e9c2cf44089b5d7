package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
)

// Attack 8 of issue 21, the sessions root: another local user who owns a
// project's sessions/ (or one left writable by everyone) could fill it
// with state that steers the user's claude. Such a ./sessions is passed
// over for the user's own sessions directory, and the reason is given.
func TestNeighbourOwnedProjectSessionsIsPassedOver(t *testing.T) {
	project, state := t.TempDir(), t.TempDir()
	t.Chdir(project)
	t.Setenv(envvar.SessionsDir, "")
	t.Setenv(envvar.StateDir, state)
	if err := os.Mkdir("sessions", 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, why, err := SessionsDirWhy(); err != nil || why != "" || dir != filepath.Join(project, "sessions") {
		t.Fatalf("the user's own ./sessions: %q, %q, %v", dir, why, err)
	}
	if os.Getuid() == 0 {
		os.Chown("sessions", 65534, 65534)
	} else {
		os.Chmod("sessions", 0o777)
	}
	dir, why, err := SessionsDirWhy()
	if err != nil || dir != filepath.Join(state, "sessions") || !strings.Contains(why, "sessions") {
		t.Fatalf("a neighbour's ./sessions: %q, %q, %v", dir, why, err)
	}
}
