//go:build !darwin

package notify

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
)

// DesktopSink shows a desktop notification: on Linux (and the BSDs), a
// freedesktop notification through the session bus's
// org.freedesktop.Notifications, spoken to with godbus (docs/design.md).
// Address is the session bus; $DBUS_SESSION_BUS_ADDRESS when empty.
type DesktopSink struct{ Address string }

func (d DesktopSink) Name() string { return "desktop" }

// ErrNoDesktop says there is no session bus to notify on (a server, a
// container): not a failure of the notifier.
var ErrNoDesktop = errors.New("no desktop session bus")

func (d DesktopSink) Send(ctx context.Context, n Notification) error {
	addr := d.Address
	if addr == "" {
		addr = os.Getenv("DBUS_SESSION_BUS_ADDRESS")
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
