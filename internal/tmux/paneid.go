package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// LabelOption is the pane user option that names a pane stably. Pane ids
// (%N) change when the tmux server restarts; a label set by the fleet
// survives because the fleet sets it again on every `up`.
const LabelOption = "@pane_label"

// paneFormat asks tmux for everything PaneID needs in one call.
const paneFormat = "#{session_name}\t#{window_name}\t#{" + LabelOption + "}\t#{pane_id}"

// PaneID returns the identity of the tmux pane this process runs in:
// "session:window:label" when the pane has a label (seed 000 §2's
// fleetPaneId), else tmux's pane id ("%12"). Outside tmux ($TMUX unset) it
// returns "".
func PaneID(ctx context.Context) (string, error) {
	if os.Getenv("TMUX") == "" {
		return "", nil
	}
	target := os.Getenv("TMUX_PANE")
	if target == "" {
		return "", fmt.Errorf("tmux: $TMUX is set but $TMUX_PANE is not")
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", "display-message", "-p", "-t", target, paneFormat).Output()
	if err != nil {
		return "", fmt.Errorf("tmux display-message: %w", err)
	}
	return FormatPaneID(strings.TrimRight(string(out), "\n"))
}

// FormatPaneID turns one line of paneFormat output into a pane identity.
func FormatPaneID(line string) (string, error) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return "", fmt.Errorf("tmux: unexpected pane description %q", line)
	}
	session, window, label, id := f[0], f[1], f[2], f[3]
	if label != "" {
		return session + ":" + window + ":" + label, nil
	}
	return id, nil
}
