package dashboard

import "github.com/superclaude/superclaude/internal/termtext"

// clean makes a value from a file safe to draw: a state file or an event
// line is anyone's of the same user to write, and a control sequence in a
// phase or a pane id must not recolour, move or retitle the dashboard. It
// is termtext.Clean, the one sanitizer of everything superclaude prints.
func clean(s string) string { return termtext.Clean(s) }
