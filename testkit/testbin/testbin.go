// Package testbin builds the superclaude binary once per test process, for
// tests that run it as a real program: on a pty, in tmux, as Claude's
// status-line and hook command.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/superclaude/superclaude/testkit/reexec"
)

var (
	once sync.Once
	path string
	err  error
	out  []byte
)

// EnvBinary names a prebuilt superclaude binary to use instead of building
// one (make e2e builds it before it runs tests where no network is).
const EnvBinary = "SUPERCLAUDE_TEST_BIN"

// Superclaude returns the path of a freshly built superclaude binary. The
// build happens once per test binary; the file is removed after the tests
// (reexec.Main runs the cleanup).
func Superclaude(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		return p
	}
	once.Do(func() {
		var dir string
		dir, err = os.MkdirTemp("", "superclaude-bin-")
		if err != nil {
			return
		}
		reexec.AfterTests(func() { os.RemoveAll(dir) })
		path = filepath.Join(dir, "superclaude")
		cmd := exec.Command("go", "build", "-o", path, "github.com/superclaude/superclaude/cmd/superclaude")
		cmd.Dir = moduleRoot()
		// Static, as make build builds it (a one-shot run's start is timed).
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err = cmd.CombinedOutput()
	})
	if err != nil {
		t.Fatalf("building superclaude: %v\n%s", err, out)
	}
	return path
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
