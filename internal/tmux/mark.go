package tmux

import (
	"os"
	"strings"
)

// StatusOption is the pane user option where a supervisor says what its
// agent waits for ("needs input"); a fleet's pane borders show it.
const StatusOption = "@superclaude_status"

// BorderFormat is the pane-border-format a fleet's session gets: the
// pane's label, and its StatusOption in reverse video when set.
const BorderFormat = " #{" + LabelOption + "}#{?#{" + StatusOption + "}, #[reverse] #{" + StatusOption + "} #[default],} "

// Here returns the tmux server and pane this process runs in, from $TMUX
// ("socket,pid,session") and $TMUX_PANE; ok is false outside tmux.
func Here() (s Server, pane string, ok bool) {
	sock, _, _ := strings.Cut(os.Getenv("TMUX"), ",")
	pane = os.Getenv("TMUX_PANE")
	if sock == "" || pane == "" {
		return Server{}, "", false
	}
	return Server{Path: sock}, pane, true
}

// MarkPane sets a pane's StatusOption to text, or unsets it when text is
// empty. Option values are never format-expanded.
func (s Server) MarkPane(pane, text string) error {
	if text == "" {
		_, err := s.Run("set-option", "-p", "-u", "-t", pane, StatusOption)
		return err
	}
	_, err := s.Run("set-option", "-p", "-t", pane, StatusOption, text)
	return err
}
