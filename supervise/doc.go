// Package supervise is superclaude's supervision tree, usable by any Go
// program that wants to run an agent CLI the way superclaude runs Claude
// Code: on a pty, restarted by a pure decision function, killed from
// outside, its leftovers swept.
//
// [Run] builds a github.com/thejerf/suture/v4 tree of three services:
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
// A [Profile] tells the tree how to drive one CLI: [Claude] is built in,
// and superclaude ships others; see the example.
package supervise
