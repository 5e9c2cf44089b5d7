package supervise

import (
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/child"
)

// TestAStopAfterATurnTheLooksNeverSawEnds: `+down` of a two-pane Gemini
// fleet waited the whole minute of the turn gate in one pane, whose turn
// had ended in a few milliseconds (CI, 2026-12-02). The stop read the
// agent's status itself and found a turn under way; the waiting
// supervisor's looks had seen it idle before the turn and idle after it,
// never busy between, so no look saw a change, and only a change woke the
// stop. Every look now wakes whoever waits for the turn, and the waiter
// reads the status again.
func TestAStopAfterATurnTheLooksNeverSawEnds(t *testing.T) {
	var status atomic.Value
	status.Store(StatusIdle)
	readBusy := make(chan struct{}, 1)
	p := Profile{Name: "chat", Status: func(Running) (string, error) {
		st := status.Load().(string)
		if st == StatusBusy {
			select {
			case readBusy <- struct{}{}:
			default:
			}
		}
		return st, nil
	}}
	s, err := newSupervisor(Config{Profile: p})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := child.Start(child.Spec{Path: "/bin/sh", Args: []string{"-c", "exec sleep 60"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(ag.PID(), syscall.SIGKILL); ag.Wait() })
	s.mu.Lock()
	s.current = ag
	s.mu.Unlock()

	s.noteStatus(StatusIdle) // a look before the turn
	status.Store(StatusBusy) // the turn starts: no look sees it
	type result struct {
		waited time.Duration
		ended  bool
	}
	done := make(chan result, 1)
	go func() {
		w, e := s.awaitTurn(10 * time.Second)
		done <- result{w, e}
	}()
	<-readBusy               // the stop found the turn under way
	status.Store(StatusIdle) // the turn ends
	s.noteStatus(StatusIdle) // the look its files' change caused
	r := <-done
	if !r.ended {
		t.Fatalf("the stop waited %s, the whole turn gate, for a turn that had ended", r.waited)
	}
}
