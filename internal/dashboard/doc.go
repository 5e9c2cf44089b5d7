// Package dashboard owns `superclaude +dashboard`: a live terminal view of
// every session of the user, built on bubbletea, from which a person picks
// a session and attaches to its tmux pane, restarts or stops its agent, or
// reads why it restarted.
//
// The package is in two halves. The [Model] is pure: its Update is a
// function of messages (keys, a window size, rows read, an action's
// outcome), its View a function of the model, so both are table-tested on
// a fixed set of rows. Everything that touches the world — the state
// files, the supervisors' control sockets, tmux — sits behind [Source],
// whose real implementation is [StoreSource].
package dashboard
