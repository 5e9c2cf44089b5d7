// Package launch starts the agent the way `superclaude ARGS`, `+run` and
// `+resume` do: it reads the supervisor's options (from the environment,
// or as flags give them), finds the agent's executable, and then either
// runs it once — a one-shot run such as `--version` or `-p`, handed over
// or run as a child with a sweep after it — or starts the supervision tree
// (package supervise) with everything a person's run needs around it: the
// terminal, the session store, the pane, the log, Claude Code's settings
// and plugin, the resume question, notifications and the tmux pane's mark.
//
// Its one entry per command line is Command (a plain `superclaude ARGS`),
// Run (options already read) and FinishRun (a print-mode run the hand-over
// ran before main). Each returns superclaude's exit code: what is printed
// on the way is said before the agent owns the terminal or after it gives
// it back.
package launch
