// Package leader is the session leader of an agent on a pty, and the
// protocol between it and package child, which starts it.
//
// An agent on a pty must have the pty as its controlling terminal, so some
// process must lead a new session. If the agent leads it, its process group
// is orphaned — its only parent, the supervisor, is in another session —
// and the kernel (Linux and macOS alike) discards SIGTSTP for an orphaned
// group: Claude Code prints "suspended" on Ctrl-Z and keeps running. So a
// small leader leads the session instead: the supervisor's own program,
// re-executed with Env set. It starts the agent in a process group of its
// own in the foreground of the pty; the agent's parent (the leader) is then
// in the agent's session but another group, the group is not orphaned, and
// the agent can stop. The leader reports every stop, continue and the exit
// over its control socket (CtlFD), and otherwise does nothing: the agent's
// PID, identity and exit status are the agent's own.
//
// One leader serves every agent of a supervisor in turn. Each agent gets a
// new pty, which comes with its command over the socket (Frame: a
// descriptor passed as SCM_RIGHTS); the leader takes it as its session's
// terminal, starts the agent on it, and, once the agent has exited, gives
// it up through that descriptor and closes it before it says so — as a
// leader of one agent gave it up by exiting — so that the next agent's can
// be taken, and the pty's end of file is then its descendants' to give. A restart thus starts one process, the
// agent, as a minimal supervisor does; when each agent had a leader of its
// own, the leader's start — this program's exec and Go runtime — was most
// of the supervisor's own share of a restart (issue 22).
//
// The leader's own environment holds nothing but Env (and GOMAXPROCS): the
// agent's command line and environment come over the socket. So the
// leader never carries the supervisor's marker, and sweeps and kills,
// which look for the marker, only ever see the agent and its descendants.
//
// The role runs from this package's init, not from a call main has to
// make, so that every program that can start agents on a pty — superclaude,
// a library user's program, every test binary — can also lead their
// sessions. It runs before most of the program has initialised: a leader
// that ran the initialisers of the whole program — cobra, the state store,
// the dashboard's terminal packages — paid for all of them at its start
// (docs/benchmarks.md, issue 22). Go initialises packages in a fixed order
// (the spec, since Go 1.21: sorted by import path, each as soon as
// everything it imports is initialised); this package imports only the
// standard library's os, os/signal and their like, internal/envvar and
// proc, so it comes among the first.
// TestTheLeaderComesBeforeTheHeavyInitialisers in cmd/superclaude/apptest fails if
// a new import ever moves it after cobra, the state store or net.
package leader
