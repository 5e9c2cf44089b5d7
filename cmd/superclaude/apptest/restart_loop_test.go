package apptest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
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

// Issue 21, partial row: the temporary files of writes whose writer was
// killed between create and rename (..state.json.tmp-…) were left for
// ever; a status line that claude kills mid-write leaves one each time.
// The supervisor removes them from its session's directory at start and
// after every exit of its agent.
func TestStaleTempFilesOfKilledWritersAreRemoved(t *testing.T) {
	h := newHarness(t, "SUPERCLAUDE_PANE_ID=f:w:A", "SUPERCLAUDE_PROFILE=generic")
	if _, err := h.store().Activate("old", "", state.Caller{Pane: "f:w:A"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(h.sessions, "old")
	plant := func(name string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("{half"), 0o600)
		then := time.Now().Add(-time.Hour)
		os.Chtimes(p, then, then)
		return p
	}
	first := plant("..state.json.tmp-killed1")
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Fatalf("a stale temporary file outlived the supervisor's start: %v", err)
	}
	second := plant("..state.json.tmp-killed2")
	// A crash (SIGKILL: a non-zero exit this soon after the start would
	// be a run that failed as it started, which is not started again):
	// the supervisor decides, then restarts.
	syscall.Kill(h.events("start")[0].PID, syscall.SIGKILL)
	h.waitStarts(2, timeout)
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Fatalf("a stale temporary file outlived the agent's exit: %v", err)
	}
}

// Issue 21, partial row: with a TMPDIR that cannot be written (or made),
// and no XDG_RUNTIME_DIR, superclaude refused to run claude at all: it
// found no runtime directory for its control socket. It falls back to
// another place, and claude starts.
func TestAnUnusableTMPDIRStillStartsTheAgent(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o600)
	h := newHarness(t, "XDG_RUNTIME_DIR=", "TMPDIR="+filepath.Join(file, "tmp"), "SUPERCLAUDE_PROFILE=generic")
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	p.Type("exit 0")
	if code := p.Wait(t, timeout); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
