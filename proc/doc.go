// Package proc owns process identity that survives PID reuse, and the
// killing of whole process trees.
//
// A bare PID names whichever process holds that number now. The shell
// scripts superclaude replaces signalled bare PIDs (race R7) and found
// children with pgrep; both hit the wrong process once a number is
// recycled. Here a process is named by an [Identity]: its PID, the time it
// started and the boot it started in. [Identity.Verify], [Alive] and
// [Signal] refuse a process whose start time differs from the one recorded,
// so a recycled PID is never signalled. On Linux [Signal] holds a pidfd
// across the check and the signal, so the two cannot race.
//
// Claude Code starts every tool, hook and status-line child in a session of
// its own, so signalling the agent's process group misses them.
// [KillTree] therefore walks parent links (Linux /proc, macOS kern.proc.all)
// to find every descendant, signals each by verified identity, and escalates
// from SIGTERM to SIGKILL after a grace. On Linux a supervisor can also
// become a child subreaper ([BecomeSubreaper]) so that the agent's orphans
// reparent to it and can still be found and reaped; on macOS, where no
// subreaper exists, processes that escaped the tree are found by an
// environment marker the supervisor gave the agent ([FindByEnv]).
//
// The package is public because an [Identity] crosses the library's
// packages: it owns a session (package state), marks and watches the agent
// (packages supervise and watchdog) and is what a profile's hooks are told
// of the running agent.
package proc
