// Package agentside is what Claude Code calls back into while superclaude
// supervises it: the status line (`+statusline`, every tick), the hooks
// (`+hook EVENT`, before tools, at prompts, at compaction …) and a skill's
// `+log`. Each runs as a short process of its own, started by claude with
// the supervisor's environment (internal/envvar), and finds the session the
// agent works in (internal/sessions) at every call.
//
// A status-line tick is bound by the agent's supervisor over its control
// socket when one answers, else here; a tick that changes nothing is
// answered from the session file without a round trip. A hook's decision
// is internal/claude's; this package reads the input, finds the session,
// asks the supervisor for a restart when the answer needs one, and writes
// the answer. Nothing here may break claude's turn: bad input is logged
// and answered as harmless.
package agentside
