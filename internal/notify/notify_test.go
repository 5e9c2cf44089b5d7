package notify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The test binary is also the fake notifier command and the fake pane:
// NOTIFY_FAKE=record:FILE appends its stdin to FILE; hang sleeps a minute;
// NOTIFY_POST=SESSION posts a limit event as a supervisor would and waits
// for its delivery.
func TestMain(m *testing.M) {
	switch v := os.Getenv("NOTIFY_FAKE"); {
	case strings.HasPrefix(v, "record:"):
		b, _ := io.ReadAll(os.Stdin)
		f, _ := os.OpenFile(strings.TrimPrefix(v, "record:"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		f.Write(append(bytes.ReplaceAll(b, []byte("\n"), nil), '\n'))
		f.Close()
		os.Exit(0)
	case v == "hang":
		time.Sleep(60 * time.Second)
		os.Exit(0)
	}
	if s := os.Getenv("NOTIFY_POST"); s != "" {
		cfg := DefaultConfig()
		n := New(cfg, os.Getenv("NOTIFY_DIR"), nil, DesktopSink{}, CommandSink{Argv: []string{os.Args[0]}})
		os.Setenv("NOTIFY_FAKE", os.Getenv("NOTIFY_POST_FAKE"))
		n.Post(Event{Kind: Limit, Session: s, Host: "h", Pane: "work:main:" + s, Want: "wait: the 5-hour usage limit resets at 20:52",
			Until: time.Now().Add(time.Hour)})
		if !n.Wait(20 * time.Second) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeBus is a session bus of its own (dbus-daemon --session, Debian's
// dbus) with a fake org.freedesktop.Notifications that records what it
// is told.
type fakeBus struct {
	addr  string
	mu    sync.Mutex
	shown []string // summary + "\n" + body
}

func (b *fakeBus) Notify(app string, id uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.shown = append(b.shown, summary+"\n"+body)
	return uint32(len(b.shown)), nil
}

// GetCapabilities says what the server shows: like most, markup in
// bodies.
func (b *fakeBus) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"body", "body-markup", "body-hyperlinks", "body-images"}, nil
}

func (b *fakeBus) got() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.shown...)
}

func startBus(t *testing.T) *fakeBus {
	t.Helper()
	b := &fakeBus{addr: startBareBus(t)}
	conn, err := dbus.Connect(b.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Export(b, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning the name: %v %v", reply, err)
	}
	return b
}

// startBareBus starts a session bus of its own, with nothing on it, and
// returns its address.
func startBareBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is absent (Debian's dbus; .ci/run installs it)")
	}
	dir := t.TempDir()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address", "--address=unix:path="+filepath.Join(dir, "bus"))
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

// records reads what the fake command was given, one notification a line.
func records(t *testing.T, path string) []Notification {
	b, _ := os.ReadFile(path)
	var out []Notification
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var n Notification
		if err := json.Unmarshal([]byte(line), &n); err != nil {
			t.Fatalf("the command got no JSON: %q", line)
		}
		out = append(out, n)
	}
	return out
}

func until(t *testing.T, within time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("not within %s", within)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

// An agent that needs input: exactly one notification, within 2 s, on
// the desktop and through the person's command, naming session, host,
// pane and what is wanted.
func TestNeedsInputIsOneNotificationWithin2s(t *testing.T) {
	bus := startBus(t)
	rec := filepath.Join(t.TempDir(), "rec")
	t.Setenv("NOTIFY_FAKE", "record:"+rec)
	n := New(DefaultConfig(), filepath.Join(t.TempDir(), "spool"), nil, DesktopSink{Address: bus.addr}, CommandSink{Argv: []string{os.Args[0]}})
	n.Post(Event{Kind: NeedsInput, Session: "2026_11_22_SDK", Host: "box", Pane: "work:main:SDK", Want: "answer the agent: it waits for your input (permission prompt)"})
	took := until(t, 2*time.Second, func() bool { return len(bus.got()) >= 1 && len(records(t, rec)) >= 1 })
	time.Sleep(time.Second)
	shown, cmd := bus.got(), records(t, rec)
	if len(shown) != 1 || len(cmd) != 1 {
		t.Fatalf("desktop %d, command %d notifications; want exactly one each", len(shown), len(cmd))
	}
	for _, want := range []string{"2026_11_22_SDK", "box", "work:main:SDK", "waits for your input"} {
		if !strings.Contains(shown[0], want) || !strings.Contains(cmd[0].Body, want) {
			t.Errorf("the notification does not name %q: %q / %+v", want, shown[0], cmd[0])
		}
	}
	t.Logf("told in %s", took.Round(time.Millisecond))
}

// Four panes of a fleet — four superclaude processes — hit one limit at
// once: one notification, naming the four.
func TestLimitOfFourPanesIsOneNotification(t *testing.T) {
	bus := startBus(t)
	dir := filepath.Join(t.TempDir(), "spool")
	rec := filepath.Join(t.TempDir(), "rec")
	var cmds []*exec.Cmd
	for _, s := range []string{"A", "B", "C", "D"} {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "NOTIFY_POST="+s, "NOTIFY_DIR="+dir, "DBUS_SESSION_BUS_ADDRESS="+bus.addr, "NOTIFY_POST_FAKE=record:"+rec)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("a pane: %v", err)
		}
	}
	shown, cmd := bus.got(), records(t, rec)
	if len(shown) != 1 || len(cmd) != 1 {
		t.Fatalf("desktop %q, command %d notifications; want one coalesced", shown, len(cmd))
	}
	for _, s := range []string{"A", "B", "C", "D"} {
		if !strings.Contains(shown[0], "work:main:"+s) {
			t.Errorf("the notification does not name pane %s: %q", s, shown[0])
		}
	}
	if !strings.Contains(shown[0], "4 sessions") {
		t.Errorf("title: %q", shown[0])
	}
}

// A notifier that hangs for 60 s delays nothing: Post returns at once,
// the desktop is told in time, a later event too, and the hung command
// is stopped at the timeout with a log line.
func TestHangingNotifierDelaysNothing(t *testing.T) {
	bus := startBus(t)
	t.Setenv("NOTIFY_FAKE", "hang")
	var logged syncBuf
	cfg := DefaultConfig()
	cfg.Timeout = 2 * time.Second
	n := New(cfg, filepath.Join(t.TempDir(), "spool"), slog.New(slog.NewTextHandler(&logged, nil)),
		CommandSink{Argv: []string{os.Args[0]}}, DesktopSink{Address: bus.addr})
	start := time.Now()
	n.Post(Event{Kind: NeedsInput, Session: "one", Host: "h", Want: "answer"})
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("Post took %s", d)
	}
	until(t, 2*time.Second, func() bool { return len(bus.got()) == 1 })
	n.Post(Event{Kind: Halted, Session: "two", Host: "h", Want: "look: halted"})
	until(t, 2*time.Second, func() bool { return len(bus.got()) == 2 })
	if !n.Wait(10 * time.Second) {
		t.Fatal("the deliveries did not end after the timeout")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the hung notifier held things up for %s", d)
	}
	if !strings.Contains(logged.String(), "still running after the timeout") {
		t.Fatalf("no log line says the notifier was stopped:\n%s", logged.String())
	}
}

// Kinds switched off in the config file are not told; the file's keys
// are checked.
func TestConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(`notify = ["ntfy", "publish", "topic"]
[notifications]
desktop = false
limit = false
turn-ended = true
window = "1s"
`), 0o600)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Desktop || !c.Terminal || c.On(Limit) || !c.On(TurnEnded) || !c.On(NeedsInput) || c.Window != time.Second || strings.Join(c.Command, " ") != "ntfy publish topic" {
		t.Fatalf("%+v", c)
	}
	os.WriteFile(path, []byte("[notifications]\ndesktp = false\n"), 0o600)
	if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "desktp") {
		t.Fatalf("a misspelt key: %v", err)
	}
	if c, err := LoadConfig(filepath.Join(t.TempDir(), "none.toml")); err != nil || !c.Desktop || c.On(TurnEnded) {
		t.Fatalf("no file: %+v %v", c, err)
	}
	var sent []Notification
	n := New(c, filepath.Join(t.TempDir(), "spool"), nil, sinkFunc(func(x Notification) { sent = append(sent, x) }))
	n.Post(Event{Kind: Limit, Session: "s", Want: "wait"})
	n.Wait(5 * time.Second)
	if len(sent) != 0 {
		t.Fatalf("a kind switched off was told: %+v", sent)
	}
}

type sinkFunc func(Notification)

func (f sinkFunc) Name() string                                   { return "func" }
func (f sinkFunc) Send(ctx context.Context, n Notification) error { f(n); return nil }

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var _ = fmt.Sprint

// The README's example config file is one LoadConfig takes, and it names
// every notifier and every kind, so that the person sees how to turn each
// on and off.
func TestREADMEConfigExample(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var block string
	for _, part := range strings.Split(string(b), "```toml\n")[1:] {
		if body, _, _ := strings.Cut(part, "```"); strings.Contains(body, "[notifications]") {
			block = body
		}
	}
	if block == "" {
		t.Fatal("the README shows no config file with [notifications]")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(block), 0o600)
	if _, err := LoadConfig(path); err != nil {
		t.Fatalf("the README's example: %v", err)
	}
	for _, key := range append([]string{"desktop =", "terminal =", "command ="}, Kinds...) {
		if !strings.Contains(block, strings.TrimSuffix(key, " =")) {
			t.Errorf("the README's example does not show %q", key)
		}
	}
}

// "Fleet all idle" is off unless the config file turns it on, and then
// told as such.
func TestFleetIdleIsOffByDefaultAndTurnsOn(t *testing.T) {
	if DefaultConfig().On(FleetIdle) {
		t.Fatal("fleet-idle is on by default")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte("[notifications]\nfleet-idle = true\n"), 0o600)
	c, err := LoadConfig(path)
	if err != nil || !c.On(FleetIdle) {
		t.Fatalf("fleet-idle = true: on=%v, %v", c.On(FleetIdle), err)
	}
	var sent []Notification
	c.Window = 10 * time.Millisecond
	n := New(c, filepath.Join(t.TempDir(), "spool"), nil, sinkFunc(func(x Notification) { sent = append(sent, x) }))
	n.Post(Event{Kind: FleetIdle, Session: "work", Host: "box", Want: "every agent of fleet work is idle at its prompt"})
	n.Wait(5 * time.Second)
	if len(sent) != 1 || !strings.Contains(sent[0].Title, "work all idle") || !strings.Contains(sent[0].Body, "every agent of fleet work is idle") {
		t.Fatalf("told %+v", sent)
	}
}
