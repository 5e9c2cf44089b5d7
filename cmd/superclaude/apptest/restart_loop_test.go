package apptest

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
)

// Attack 3 of issue 21: an agent that activates its session and then asks
// for a restart looped at about three restarts a second, for ever. Each
// cycle made progress (the session was activated), so the progress
// breaker did not apply, and a requested restart is no crash, so the crash
// limit did not either. The restart-rate breaker stops it, halts the
// session, and says why on the screen and in the event log (+why).
func TestRestartLoopIsBroken(t *testing.T) {
	h := newHarness(t, fakeagent.EnvAtStart+"=activate X implement;restart",
		"SUPERCLAUDE_MAX_RESTARTS=4", "SUPERCLAUDE_RESTART_WINDOW=10m")
	p := h.start()
	done := make(chan struct{})
	go func() { defer close(done); <-p.Done() }()
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		t.Fatalf("superclaude still restarting after 40 s: %d agents started", len(h.events("start")))
	}
	if n := len(h.events("start")); n != 5 {
		t.Fatalf("the agent was started %d times, want 5 (the first and 4 restarts)", n)
	}
	out := p.Output()
	if !strings.Contains(out, "restarted 4 times within 10m0s") {
		t.Fatalf("no readable reason on the screen:\n%s", out)
	}
	x, err := h.store().Load("X")
	if err != nil {
		t.Fatal(err)
	}
	if x.Halted == "" || x.LastExit != "restart-loop" {
		t.Fatalf("session X after the breaker: halted %q, lastExit %q", x.Halted, x.LastExit)
	}
	evs, _ := h.store().Events("X")
	last := evs[len(evs)-1]
	if !strings.Contains(last.Reason, "restarted 4 times within 10m0s") {
		t.Fatalf("the event log's last word is %+v, want why the restarts stopped", last)
	}
}

// Attack 4 of issue 21: a signal in the first milliseconds after the
// start was lost — SIGTERM in 11 of 40 runs, SIGHUP and SIGINT in 7 of 30
// — when it came before the agent was started: the stop found no agent to
// kill, and the agent then ran on. A stop that arrives before the agent
// starts must mean that it never starts, or is stopped at once.
func TestSignalsInTheFirstMillisecondsAreHonoured(t *testing.T) {
	h := newHarness(t, "SUPERCLAUDE_PROFILE=generic")
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT}
	for i := range 45 {
		sig := sigs[i%len(sigs)]
		p := h.start()
		time.Sleep(time.Duration(i%30) * time.Millisecond)
		p.Cmd.Process.Signal(sig)
		select {
		case <-p.Done():
		case <-time.After(8 * time.Second):
			t.Fatalf("run %d: superclaude still running 8 s after %v; its agent ran on", i, sig)
		}
	}
	for _, r := range h.events("start") {
		if proc.Alive(proc.Identity{PID: r.PID, Start: r.Start}) {
			t.Errorf("agent %d outlived its superclaude's stop", r.PID)
		}
	}
}
