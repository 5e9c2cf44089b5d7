package notify

import (
	"context"
	"errors"
	"strings"

	"github.com/superclaude/superclaude/internal/termtext"
)

// TerminalSink tells the terminal the agent runs on: OSC 9 (iTerm2,
// kitty, WezTerm, ghostty, Windows Terminal) or OSC 777 (rxvt, foot),
// which such a terminal shows as a notification and any other ignores.
// Inside tmux the pane is tmux's, which passes such a sequence on only
// when its allow-passthrough is on (then it goes wrapped for it); else a
// bell, which tmux hands the terminal as bell-action says.
//
// Write must put the sequence between two pieces of the agent's output,
// never inside one (child.Terminal.Notice): written into an escape
// sequence of the agent's, it would break the agent's screen.
type TerminalSink struct {
	Write func(seq []byte) bool
	// Term is $TERM; InTmux and Passthrough say where the sequence goes.
	Term                string
	InTmux, Passthrough bool
}

func (t TerminalSink) Name() string { return "terminal" }

func (t TerminalSink) Send(ctx context.Context, n Notification) error {
	if t.Write == nil || !t.Write(t.Sequence(n)) {
		return errors.New("no terminal")
	}
	return nil
}

// Sequence is what goes to the terminal for n.
func (t TerminalSink) Sequence(n Notification) []byte {
	// termtext.Clean leaves no control character that could end the
	// string early or start a sequence of its own.
	title := termtext.Clean(n.Title)
	body := termtext.Clean(strings.ReplaceAll(n.Body, "\n", "; "))
	var seq string
	if strings.HasPrefix(t.Term, "rxvt") || strings.HasPrefix(t.Term, "foot") {
		seq = "\x1b]777;notify;" + strings.ReplaceAll(title, ";", ",") + ";" + body + "\x1b\\"
	} else {
		seq = "\x1b]9;" + title + ": " + body + "\x1b\\"
	}
	switch {
	case t.InTmux && t.Passthrough:
		return []byte("\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\")
	case t.InTmux:
		return []byte("\a")
	}
	return []byte(seq)
}
