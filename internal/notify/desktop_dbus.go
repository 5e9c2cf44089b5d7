//go:build !darwin

package notify

import (
	"context"
	"errors"
	"os"

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
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "category": dbus.MakeVariant("im")}
	return obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		"superclaude", uint32(0), "", n.Title, n.Body, []string{}, hints, int32(-1)).Err
}
