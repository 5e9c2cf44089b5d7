package supervise

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// burstSupervisor is a supervisor with session x activated and a sleeping
// agent it runs, watched and killed by a served watchdog.
func burstSupervisor(t *testing.T) (*Supervisor, *state.Store, *child.Agent) {
	t.Helper()
	return supervisorOf(t, child.Spec{Path: "/bin/sleep", Args: []string{"30"}})
}

// supervisorOf is burstSupervisor with the agent spec starts.
func supervisorOf(t *testing.T, spec child.Spec) (*Supervisor, *state.Store, *child.Agent) {
	t.Helper()
	s, store := newBinderSupervisor(t)
	if _, err := store.Activate("x", "implement", state.Caller{Owner: s.self, Pane: s.cfg.Pane}); err != nil {
		t.Fatal(err)
	}
	ag, err := child.Start(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proc.Signal(ag.Identity(), 9); ag.Wait() })
	s.mu.Lock()
	s.current = ag
	s.mu.Unlock()
	s.wd.Watch(ag.Identity())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go s.wd.Serve(ctx)
	return s, store, ag
}

// kinds counts the events of x since before, by kind and reason.
func kinds(t *testing.T, store *state.Store, before int) (map[string]int, int) {
	t.Helper()
	evs, err := store.Events("x")
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs[before:] {
		n[e.Kind+": "+e.Reason]++
	}
	return n, len(evs) - before
}

// Issue 21, partial row: refused restarts still wrote — 15 restart
// requests in a burst wrote 302 events and the restart request into the
// state once per request, because only the watchdog's kill queue
// de-duplicated them. One agent has one restart: the first request takes
// it, and every other is refused before it writes anything.
func TestAttackRestartBurstWritesOneRestart(t *testing.T) {
	s, store, ag := burstSupervisor(t)
	evs, _ := store.Events("x")
	before := len(evs)
	b := &binder{s: s}
	var wg sync.WaitGroup
	answers := make([]control.Response, 15)
	start := make(chan struct{})
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			answers[i] = b.handle(context.Background(), control.Request{Op: control.OpRestart, Session: store.Root + "/x", Now: true,
				Reason: "burst"}, control.Peer{UID: os.Getuid(), PID: os.Getppid()})
		}()
	}
	close(start)
	wg.Wait()
	taken := 0
	for _, a := range answers {
		switch {
		case a.OK:
			taken++
		case !strings.Contains(a.Error, "already under way"):
			t.Errorf("a request was refused for another reason: %q", a.Error)
		}
	}
	n, total := kinds(t, store, before)
	if taken != 1 || n["restart: burst"] != 1 || n["transition: restart requested"] != 1 || total != 2 {
		t.Fatalf("15 requests: %d taken, %d events %v; want one restart: 1 taken, a state write and a restart event", taken, total, n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for proc.Alive(ag.Identity()) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if proc.Alive(ag.Identity()) {
		t.Fatal("the restart taken did not kill the agent")
	}
}

// Issue 21, partial row: a request that came as the agent ended wrote the
// restart into the state after the decision for that exit was made, and
// killed the fresh agent. The decision waits for a restart being written,
// and a request after it finds no agent and writes nothing.
func TestAttackRestartWrittenAfterTheDecision(t *testing.T) {
	s, store, _ := burstSupervisor(t)
	claim, err := s.takeRestart()
	if err != nil {
		t.Fatal(err)
	}
	gone := make(chan struct{})
	go func() { s.agentGone(); close(gone) }()
	select {
	case <-gone:
		t.Fatal("the agent's exit was decided while its restart was being written")
	case <-time.After(100 * time.Millisecond):
	}
	claim.end(true)
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the decision still waits after the restart was written")
	}
	evs, _ := store.Events("x")
	b := &binder{s: s}
	resp := b.handle(context.Background(), control.Request{Op: control.OpRestart, Session: store.Root + "/x", Now: true},
		control.Peer{UID: os.Getuid(), PID: os.Getppid()})
	if resp.OK || !strings.Contains(resp.Error, "no agent") {
		t.Fatalf("a request with no agent running: %+v", resp)
	}
	st, _ := store.Load("x")
	if n, total := kinds(t, store, len(evs)); total != 0 || st.KillRequested {
		t.Fatalf("a request with no agent running wrote %v, state %+v", n, st)
	}
}
