package supervise

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/state"
)

// Attack (issue 21, row 8, left by its first pass): a link planted at
// <pid>.sock in the runtime directory — by a neighbour, or left by
// anything else — made the control socket's Listen fail, and the
// supervisor refused to start at all. It must start anyway, with its
// socket in a fresh private directory, leave the link and its target as
// they were, and say in the log why its socket is elsewhere.
func TestAttackLinkPlantedAtTheSocketDoesNotStopTheStart(t *testing.T) {
	tmp, err := os.MkdirTemp("", "sc-sock-") // short: the socket path must fit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	rt, err := control.RuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(tmp, "victim")
	os.WriteFile(victim, []byte("keep"), 0o640)
	planted := filepath.Join(rt, strconv.Itoa(os.Getpid())+".sock")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}

	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	s, err := Start(context.Background(), Config{Profile: Profiles["generic"], Command: "/bin/sleep", Args: []string{"60"},
		Grace: time.Second, Store: store, Log: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatalf("a link at %s stopped the start: %v", planted, err)
	}
	t.Cleanup(func() { s.Stop(true); s.Wait() })
	st := waitStatus(t, s, "the agent", func(st Status) bool { return st.AgentPID != 0 })
	if st.Socket == planted || st.Socket == "" {
		t.Fatalf("the supervisor's socket is %q", st.Socket)
	}
	if fi, err := os.Lstat(st.Socket); err != nil || fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("the socket %s: %v, %v", st.Socket, fi.Mode(), err)
	}
	if fi, err := os.Lstat(filepath.Dir(st.Socket)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the socket's directory is not private: %v", err)
	}
	if fi, err := os.Lstat(planted); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the planted link was not left as it was: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o640 {
		t.Errorf("the link's target's mode was changed to %v", fi.Mode().Perm())
	}
	if found, err := control.FindSocket(os.Getpid()); err != nil || found != st.Socket {
		t.Errorf("another process finds the socket at %q (%v), want %q", found, err, st.Socket)
	}
	if l := log.String(); !strings.Contains(l, planted) {
		t.Errorf("the log does not say why the socket is not at %s:\n%s", planted, l)
	}
}
