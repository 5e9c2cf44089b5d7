package notify

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// DesktopSink shows a desktop notification: on macOS through osascript's
// `display notification`, the text passed as AppleScript string literals
// in an argument, never through a shell. Address is unused.
type DesktopSink struct{ Address string }

func (d DesktopSink) Name() string { return "desktop" }

// ErrNoDesktop says there is no desktop to notify on.
var ErrNoDesktop = errors.New("no desktop")

// CheckDesktop says whether a desktop notification can be shown from
// here, for +doctor: osascript is there to show it. getenv reads the
// environment.
func CheckDesktop(ctx context.Context, getenv func(string) string) (string, error) {
	file, err := exec.LookPath("osascript")
	if err != nil {
		return "", fmt.Errorf("osascript, which shows them, is not found: %w", err)
	}
	return "shown by " + file, nil
}

func (d DesktopSink) Send(ctx context.Context, n Notification) error {
	script := "display notification " + appleString(n.Body) + " with title " + appleString(n.Title)
	return exec.CommandContext(ctx, "osascript", "-e", script).Run()
}

// appleString quotes s as an AppleScript string literal.
func appleString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
