package supervise

import (
	"os"
	"syscall"
)

// Superclaude as a container's first process, PID 1 of its PID namespace
// (`docker run`, a Kubernetes pod: docs/containers.md). Two things are
// different there, and this file holds what the supervisor does about them.
//
// Orphans. Every process of the namespace whose parent dies is reparented to
// PID 1 — not only the agent's, which come to the supervisor anyway as a
// child subreaper, but a `kubectl exec` or `docker exec` shell's background
// jobs too — and PID 1 must reap them, or their zombies fill the process
// table. The supervisor reaps every dead child it does not wait for itself
// on each SIGCHLD (run's signal loop, proc.ReapOrphans), whoever its parent
// was: nothing more is needed, and the PID-namespace tests show it.
//
// SIGTERM. The kernel delivers to a PID 1 only the signals it handles (Go's
// runtime handles them all), and a PID 1 gets SIGTERM from the container
// runtime — `docker stop`, a pod being deleted or moved — never from a
// person at a terminal. It means "this container is going away", as `+down`
// means "this fleet is going down", so it is handled as +down's stop is:
// once the agent has finished the turn it is in (Policy.TurnWait at most),
// the agent gets SIGTERM and the grace, and superclaude exits with the
// agent's code. Claude is not killed in the middle of an edit, and the
// conversation is left whole for the next start to resume. A second SIGTERM
// stops at once. The runtime's own grace (Kubernetes'
// terminationGracePeriodSeconds, `docker stop -t`) must cover the wait; the
// example manifest's does.
//
// Anywhere else SIGTERM keeps its meaning — the user's own stop, passed on
// to the agent at once — and so does it when superclaude is not PID 1 in a
// container (behind `docker run --init` or tini, whose SIGTERM reaches it
// as that of any parent).

// isInit reports whether this process is the first of its PID namespace.
func isInit() bool { return os.Getpid() == 1 }

// onTerm handles a SIGTERM sent to the supervisor.
func (s *Supervisor) onTerm() {
	if !s.asInit || s.termPending.Swap(true) || s.stopping.Load() {
		s.stop(syscall.SIGTERM)
		return
	}
	// From now on the run ends whenever the agent does: an agent that
	// exits by itself during the wait is not restarted.
	s.stopping.Store(true)
	s.log.Info("SIGTERM to PID 1: the container is being stopped; stopping the agent once its turn has ended")
	s.stopAfterTurn(false)
}
