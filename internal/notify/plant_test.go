package notify

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// Attack: the spool's lock held and never let go — by a superclaude
// stopped with Ctrl-Z in the moment it held it, or by a neighbour of the
// same user — stopped every notification of every session for as long:
// each delivery waited on the lock for ever, one more goroutine and two
// descriptors a post. A delivery waits a bounded time, then tells its own
// event alone, unless the holder took it meanwhile.
func TestAttackSpoolLockHeldForEverDelaysNoNotification(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []Notification
	cfg := DefaultConfig()
	cfg.Window = 10 * time.Millisecond
	cfg.Timeout = 2 * time.Second
	n := New(cfg, dir, nil, sinkFunc(func(x Notification) { mu.Lock(); sent = append(sent, x); mu.Unlock() }))
	n.Post(Event{Kind: NeedsInput, Session: "s", Host: "h", Want: "answer"})
	if !n.Wait(10 * time.Second) {
		t.Fatal("the delivery still waits on a lock held for ever")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 1 || !strings.Contains(sent[0].Body, "answer") {
		t.Fatalf("told %+v; want the event, once", sent)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("the spool holds %d files after the event was told, want only the lock", len(names))
	}
}

// Attack: a session name — a name an agent can choose, from a prompt a
// repository planted — carrying desktop-notification markup and
// direction overrides. freedesktop servers that announce "body-markup"
// (GNOME's, KDE's, dunst, mako) read the body as markup: a link there
// (<a href>) became a link in the person's notification, an <img> a
// picture loaded from anywhere, and U+202E turned the text around. The
// body is escaped for a server that reads markup, and no control or
// direction character reaches the title or the body.
func TestAttackMarkupInASessionNameIsShownAsText(t *testing.T) {
	bus := startBus(t)
	cfg := DefaultConfig()
	cfg.Window = 10 * time.Millisecond
	n := New(cfg, filepath.Join(t.TempDir(), "spool"), nil, DesktopSink{Address: bus.addr})
	name := `x<a href="https://evil.example/">click</a><img src="https://evil.example/p.png"/>&amp;` + "\u202egnp.exe\x1b]0;t\a"
	n.Post(Event{Kind: NeedsInput, Session: name, Host: "h", Want: "answer"})
	if !n.Wait(10 * time.Second) {
		t.Fatal("the delivery did not end")
	}
	shown := bus.got()
	if len(shown) != 1 {
		t.Fatalf("shown %q", shown)
	}
	title, body, _ := strings.Cut(shown[0], "\n")
	for _, bad := range []string{"\u202e", "\x1b", "\a"} {
		if strings.Contains(shown[0], bad) {
			t.Errorf("%q reached the notification: %q", bad, shown[0])
		}
	}
	if strings.Contains(body, "<a ") || strings.Contains(body, "<img") || !strings.Contains(body, "&lt;a href=") || !strings.Contains(body, "&amp;amp;") {
		t.Errorf("the body is not escaped for a server that reads markup: %q", body)
	}
	if !strings.Contains(title, `<a href="https://evil.example/">`) {
		t.Errorf("the title, which is plain text, was changed: %q", title)
	}
}
