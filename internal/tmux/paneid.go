package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// LabelOption is the pane user option that names a pane stably. Pane ids
// (%N) change when the tmux server restarts; a label set by the fleet
// survives because the fleet sets it again on every `up`.
const LabelOption = "@pane_label"

// paneFormat asks tmux for everything PaneID needs in one call.
const paneFormat = "#{session_name}\t#{window_name}\t#{" + LabelOption + "}\t#{pane_id}\t#{socket_path}\t#{start_time}"

// PaneID returns the identity of the tmux pane this process runs in (see
// FormatPaneID). Outside tmux ($TMUX unset) it returns "".
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
	args := []string{"display-message", "-p", "-t", target, paneFormat}
	// The server this process runs in, not whatever the default socket is:
	// $TMUX is "socket,pid,session".
	if sock, _, ok := strings.Cut(os.Getenv("TMUX"), ","); ok && sock != "" {
		args = append([]string{"-S", sock}, args...)
	}
	// -u: see Server.Run.
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-u"}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("tmux display-message: %w", err)
	}
	return FormatPaneID(strings.TrimRight(string(out), "\n"))
}

// FormatPaneID turns one line of paneFormat output into a pane identity:
//
//   - a labelled pane (the @pane_label option, which a fleet sets) is
//     "session:window:label", a session's fleetPaneId: stable across tmux
//     server restarts, so fleet resume keys on it;
//   - an unlabelled pane is "%N@<server socket>@<server start time>":
//     tmux numbers panes from %0 again in every server, so the id alone
//     would let a new server's first pane take over whatever an old
//     server's %0 ran, and two servers' %0 panes fight over one session.
func FormatPaneID(line string) (string, error) {
	f := strings.Split(line, "\t")
	if len(f) != 6 {
		return "", fmt.Errorf("tmux: unexpected pane description %q", line)
	}
	session, window, label, id, socket, started := f[0], f[1], f[2], f[3], f[4], f[5]
	if label != "" {
		return session + ":" + window + ":" + label, nil
	}
	if !strings.HasPrefix(id, "%") {
		return "", fmt.Errorf("tmux: unexpected pane id %q", id)
	}
	return id + "@" + socket + "@" + started, nil
}

// Labelled reports whether a pane identity is a label's
// (session:window:label), which survives a tmux restart, rather than an
// unlabelled pane's, which lives as long as its server.
func Labelled(id string) bool { return id != "" && !strings.HasPrefix(id, "%") }

// PaneNumber returns the tmux pane id (%N) of an unlabelled pane's
// identity, and "" for a labelled one.
func PaneNumber(id string) string {
	if Labelled(id) {
		return ""
	}
	n, _, _ := strings.Cut(id, "@")
	return n
}

// Short is a pane identity as a list shows it to a person: a labelled
// pane's session:window:label as it is, an unlabelled one's %N without the
// socket path and start time that make it unique (those are for
// superclaude; --json has them).
func Short(id string) string {
	if id == "" || Labelled(id) {
		return id
	}
	return PaneNumber(id)
}

// Unlabelled reads an unlabelled pane's identity, "%N@<socket>@<start
// time>": the pane id, its server's socket and the server's start time.
func Unlabelled(id string) (pane, socket, started string, ok bool) {
	parts := strings.SplitN(id, "@", 3)
	if len(parts) != 3 || len(parts[0]) < 2 || parts[0][0] != '%' || !filepath.IsAbs(parts[1]) {
		return "", "", "", false
	}
	for _, r := range parts[0][1:] {
		if r < '0' || r > '9' {
			return "", "", "", false
		}
	}
	return parts[0], parts[1], parts[2], true
}
