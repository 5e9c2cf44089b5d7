package notify

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loadWithin runs LoadConfig(path) and fails the test when it has not
// returned within d: a config file that hangs superclaude hangs it before
// the agent starts.
func loadWithin(t *testing.T, path string, d time.Duration) (Config, error) {
	t.Helper()
	type result struct {
		c   Config
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := LoadConfig(path)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-time.After(d):
		t.Fatalf("LoadConfig(%s) still waits after %s", path, d)
		return Config{}, nil
	}
}

// Attack: a FIFO planted where the config file goes. Opened plainly, it
// blocks superclaude's start until a writer comes, for ever; it must be
// refused at once, with an error naming the file.
func TestConfigFileAFIFOPlantedThereIsRefusedNotWaitedOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := loadWithin(t, path, 3*time.Second)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a FIFO as the config file: %v", err)
	}
}

// Attack: a config file every user may write. Its `notify` command is
// run as the person, so a neighbour who can edit it runs code as them:
// it is refused, and the defaults (which run no command) hold.
func TestConfigFileWritableByEveryoneIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(`notify = ["sh", "-c", "touch /tmp/owned"]`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	c, err := loadWithin(t, path, 3*time.Second)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a config file writable by everyone was read: %+v, %v", c, err)
	}
	if len(c.Command) != 0 {
		t.Fatalf("its command was taken: %q", c.Command)
	}
}

// Attack: a link planted in the spool where the rate limit's record is
// written through a temporary name. The record must be written beside
// the link, never through it into the file it points at.
func TestSpoolALinkPlantedThereIsNotWrittenThrough(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(victim, []byte("the person's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".sent.json.tmp", ".sent.json"} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	var sent []Notification
	cfg := DefaultConfig()
	cfg.Window = 10 * time.Millisecond
	n := New(cfg, dir, nil, sinkFunc(func(x Notification) { sent = append(sent, x) }))
	n.Post(Event{Kind: NeedsInput, Session: "s", Host: "h", Want: "answer"})
	if !n.Wait(5 * time.Second) {
		t.Fatal("the delivery did not end")
	}
	if b, _ := os.ReadFile(victim); string(b) != "the person's own file\n" {
		t.Fatalf("the file a planted link points at was written: %q", b)
	}
	if len(sent) != 1 {
		t.Fatalf("told %d times, want once", len(sent))
	}
}
