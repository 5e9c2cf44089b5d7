//go:build !darwin

package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/godbus/dbus/v5"
)

// DesktopSink shows a desktop notification: on Linux (and the BSDs), a
// freedesktop notification through the session bus's
// org.freedesktop.Notifications, spoken to with godbus (docs/design.md).
// Address is the session bus; SessionBus's when empty.
type DesktopSink struct{ Address string }

func (d DesktopSink) Name() string { return "desktop" }

// ErrNoDesktop says there is no session bus to notify on (a server, a
// container): not a failure of the notifier.
var ErrNoDesktop = errors.New("no desktop session bus")

// SessionBus is the address of the person's D-Bus session bus:
// $DBUS_SESSION_BUS_ADDRESS, else the socket a systemd user session keeps
// at $XDG_RUNTIME_DIR/bus (a shell in tmux or over ssh often lacks the
// variable while the desktop's bus is there); "" when there is none.
// getenv reads the environment.
func SessionBus(getenv func(string) string) string {
	if addr := getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" {
		return addr
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		bus := filepath.Join(dir, "bus")
		if fi, err := os.Stat(bus); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + bus
		}
	}
	return ""
}

// CheckDesktop says whether a desktop notification can be shown from
// here, for +doctor: the session bus answers and a notification server
// owns org.freedesktop.Notifications on it. getenv reads the environment.
func CheckDesktop(ctx context.Context, getenv func(string) string) (string, error) {
	addr := SessionBus(getenv)
	if addr == "" {
		return "", ErrNoDesktop
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("the session bus %s does not answer: %w", addr, err)
	}
	defer conn.Close()
	var has bool
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.Notifications").Store(&has); err != nil {
		return "", fmt.Errorf("the session bus %s: %w", addr, err)
	}
	if !has {
		return "", fmt.Errorf("no notification server runs on the session bus %s (no desktop, or one without notifications)", addr)
	}
	return "a notification server answers on the session bus " + addr, nil
}

func (d DesktopSink) Send(ctx context.Context, n Notification) error {
	addr := d.Address
	if addr == "" {
		addr = SessionBus(os.Getenv)
	}
	if addr == "" {
		return ErrNoDesktop
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return err
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	body := n.Body
	if readsMarkup(ctx, obj) {
		body = markupText.Replace(body)
	}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "category": dbus.MakeVariant("im")}
	return obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		"superclaude", uint32(0), "", n.Title, body, []string{}, hints, int32(-1)).Err
}

// readsMarkup reports whether the notification server reads a body as
// markup (its capability "body-markup"; GNOME's, KDE's, dunst and mako
// do): a session name or a fleet file's label holding <a href=…> or
// <img src=…> would then be a link or a picture in the person's
// notification. A server that does not answer is taken to read it.
func readsMarkup(ctx context.Context, obj dbus.BusObject) bool {
	var caps []string
	if err := obj.CallWithContext(ctx, "org.freedesktop.Notifications.GetCapabilities", 0).Store(&caps); err != nil {
		return true
	}
	for _, c := range caps {
		if c == "body-markup" {
			return true
		}
	}
	return false
}

// markupText writes text so that a server reading markup shows it as it
// is (the specification's markup is a subset of XML).
var markupText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
