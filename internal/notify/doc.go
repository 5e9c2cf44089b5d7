// Package notify tells the person when an agent needs them: it needs
// input, it hit a usage limit (and when that resets), its session was
// halted, it crashed past the crash limit; optionally, a turn ended, or
// every agent of a fleet is idle.
//
// An event is posted by whichever superclaude process learns of it — a
// supervisor, or a hook run by the agent — and first written to a spool
// directory under the state directory, so that it survives the process
// that posted it. Delivery happens apart from the agent, in a goroutine:
// the posting process takes the spool's lock, waits the coalescing
// window, takes every event spooled meanwhile by any process (the four
// panes of a fleet that hit one limit together), drops those the rate
// limit holds back (with a log line), and sends one notification through
// each notifier the person's config file turns on: the desktop's
// (freedesktop notifications over D-Bus on Linux, osascript on macOS),
// the terminal's (OSC 9 / OSC 777, or a bell inside tmux), and a command
// of the person's with the notification as JSON on stdin. A notifier
// that fails or hangs is given Config.Timeout, then stopped, and the log
// says so; nothing waits for it but the delivery goroutine itself.
package notify
