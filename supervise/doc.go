// Package supervise is superclaude's supervision tree, usable by any Go
// program that wants to run an agent CLI the way superclaude runs Claude
// Code: on a pty, restarted by a pure decision function, killed from
// outside, its leftovers swept.
//
// [Start] builds a github.com/thejerf/suture/v4 tree of three services and
// returns the running [Supervisor], a program's handle on it: its
// [Supervisor.Status], a [Supervisor.Restart] after the agent's turn, a
// [Supervisor.Stop], and [Supervisor.Wait] for how the run ended. [Run] is
// Start and Wait. The services:
//
//   - agent: starts the agent (package child), waits for it, and after each
//     exit asks [Decide] what to do — stop with the agent's exit code,
//     start fresh with a restart prompt, resume a conversation, or count a
//     crash against the intensity limit;
//   - watchdog: kills the agent from outside on request (package watchdog);
//   - binder: the control socket, a Unix socket only the same user can
//     reach, through which the agent's children ask for a restart, report
//     status-line ticks and query status.
//
// suture never kills anything itself: on shutdown it cancels contexts and,
// after Spec.Timeout, only reports. So the agent service kills and reaps
// its process before Serve returns. Planned transitions (an overflow
// restart, a resume) are the agent service's own decisions and loop inside
// Serve; a crash is returned to suture as a failure, so suture's failure
// threshold, decay and backoff are the crash-intensity limit. When the
// limit is passed the supervisor stops and says why instead of backing off
// forever.
//
// A [Profile] tells the tree how to drive one CLI: how to read the user's
// command line, how to start, resume and prompt a conversation, and —
// asked while the agent runs — which conversation it has and whether it
// is busy. The supervisor binds what it learns to the session, so that a
// crash, a fleet's +down and +up, or a restart from outside resumes the
// same conversation. [Claude], [Codex] and [Gemini] are built in, measured
// against the real CLIs (docs/agent-clis.md); [OpenCode], [Aider] and
// [Generic] run CLIs whose conversation superclaude cannot learn. A program
// writes its own; see the examples. A run whose Config.Store comes from
// [OpenSessions] shows in superclaude's +status beside its own runs.
//
// Nothing here needs a package of internal/: a program outside this module
// can use every exported name (examples/crashresume is one).
package supervise
