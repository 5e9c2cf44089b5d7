//go:build !darwin

package notify

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// The session bus is $DBUS_SESSION_BUS_ADDRESS, else the socket a
// systemd user session keeps in $XDG_RUNTIME_DIR (a shell in tmux or over
// ssh often lacks the variable), else none.
func TestSessionBus(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"XDG_RUNTIME_DIR": dir}
	getenv := func(k string) string { return env[k] }
	if got := SessionBus(getenv); got != "" {
		t.Fatalf("no bus: %q", got)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if got := SessionBus(getenv); got != "unix:path="+filepath.Join(dir, "bus") {
		t.Fatalf("the runtime directory's bus: %q", got)
	}
	env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/elsewhere"
	if got := SessionBus(getenv); got != "unix:path=/elsewhere" {
		t.Fatalf("the variable first: %q", got)
	}
}

// +doctor's check: no bus, a bus without a notification server, and one
// with (dbus-daemon --session, as the notification tests start it).
func TestCheckDesktop(t *testing.T) {
	ctx := context.Background()
	if _, err := CheckDesktop(ctx, func(string) string { return "" }); !errors.Is(err, ErrNoDesktop) {
		t.Fatalf("no bus: %v", err)
	}
	bus := startBus(t)
	if what, err := CheckDesktop(ctx, env{"DBUS_SESSION_BUS_ADDRESS": bus.addr}.get); err != nil || !strings.Contains(what, "notification server") {
		t.Fatalf("a bus with a server: %q %v", what, err)
	}
	bare := startBareBus(t)
	if _, err := CheckDesktop(ctx, env{"DBUS_SESSION_BUS_ADDRESS": bare}.get); err == nil || !strings.Contains(err.Error(), "no notification server") {
		t.Fatalf("a bus without a server: %v", err)
	}
}

// env is an environment for a getenv.
type env map[string]string

func (e env) get(k string) string { return e[k] }
