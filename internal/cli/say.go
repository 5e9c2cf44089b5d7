package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/state"
)

// Say writes words for the person to w: "superclaude: " and the first
// line, then each further line (errors.Join puts one problem a line)
// indented under it, so that every problem is read on its own line and
// none can pass for a line of superclaude's own. Any other control
// character is made harmless (termtext.Lines): an error can quote a
// file's content, or another program's.
func Say(w io.Writer, words string) {
	lines := termtext.Lines(words)
	if len(lines) == 0 {
		lines = []string{""}
	}
	var b strings.Builder
	b.WriteString("superclaude: " + lines[0] + "\n")
	for _, l := range lines[1:] {
		b.WriteString("  " + l + "\n")
	}
	io.WriteString(w, b.String())
}

// WriteLines writes text to w line by line, each made harmless as Say
// makes it.
func WriteLines(w io.Writer, text string) {
	for _, line := range strings.Split(text, "\n") {
		fmt.Fprintln(w, termtext.Clean(line))
	}
}

// WriteSession writes a session as the +session commands print it: its
// directory, or, asJSON, its name, directory and state.
func WriteSession(w io.Writer, sess *state.Session, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, map[string]any{"name": sess.Name, "dir": sess.Dir, "state": sess.State})
	}
	_, err := fmt.Fprintln(w, sess.Dir)
	return err
}

// WriteStatus writes views as +status and +session list print them: a
// JSON array (asJSON), else a table at the time now, or a line that says
// there are none.
func WriteStatus(w io.Writer, views []SessionView, asJSON bool, now time.Time) error {
	if asJSON {
		return WriteJSONArray(w, views)
	}
	if len(views) == 0 {
		_, err := fmt.Fprintln(w, "no sessions yet")
		return err
	}
	return WriteTable(w, views, now)
}
