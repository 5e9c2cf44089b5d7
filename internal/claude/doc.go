// Package claude owns what superclaude knows of Claude Code itself: the JSON
// its status line and hooks receive and what they must answer, the settings
// superclaude injects at launch (status line, hooks, the /session
// commands), and the decisions behind them — binding a conversation to its
// session, guarding the context window, the session gate and the logging
// heartbeat. What the CLI does that this package relies on, and the test
// that shows each, is in docs/design.md#what-we-rely-on-from-the-agent-clis;
// the tests run on payloads the real CLI sent, saved by the lab tests of
// e2e in testdata/.
//
// The decisions (Bind, PreToolUse, PreCompact, SessionStart …) are pure
// functions of their input and the session state; Tick and Hook make the
// writes they call for under the session's lock, deciding again there.
// Reading stdin, finding the session and printing are internal/agentside's
// (and, for the status line, the supervisor's binder).
package claude
