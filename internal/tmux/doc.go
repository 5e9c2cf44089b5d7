// Package tmux owns superclaude's use of tmux: the identity of the pane a
// process runs in, and (for fleets) creating, labelling and tearing down
// sessions, windows and panes. Every call runs the tmux binary with an
// argument vector, never through a shell.
package tmux
