// Package claude owns what superclaude knows of Claude Code itself: the JSON
// its status line and hooks receive and what they must answer, the settings
// superclaude injects at launch (status line, hooks, the /session
// commands), and the decisions behind them — binding a conversation to its
// session, guarding the context window, the session gate and the logging
// heartbeat. Facts about the CLI are in shared/CLAUDE-CODE-FACTS.md, and the
// tests run on the real payloads in shared/samples.
//
// Everything here is a pure function of its input and the session state;
// cmd/superclaude reads stdin, looks the session up, writes the state and
// prints.
package claude
