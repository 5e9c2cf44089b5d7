package supervise

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/state"
)

// Regression: three `+session restart --now` typed within 20 s halted the
// session — "no progress: 3 restarts in a row, and each fresh agent ended
// … before it activated the session" — though every one of those ends was
// superclaude's own kill, at the person's request. A restart asked for
// from outside the agent's tree does not count toward "no progress"; one
// the agent asks for from inside its own tree still does.
func TestRestartsThePersonAskedForAreNotNoProgress(t *testing.T) {
	dir := t.TempDir()
	store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	rt, err := os.MkdirTemp("", "sc-progress-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	// Claude's profile: its agents activate their session, and a restart
	// starts the next one fresh with the continuation prompt, which this
	// agent never acts on — each fresh agent ends before it activates.
	agent := filepath.Join(dir, "agent")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\nexec sleep 60\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy
	pol.TurnWait, pol.DehydrateWait = 0, 0
	s, err := Start(context.Background(), Config{Profile: Claude, Command: agent,
		Socket: filepath.Join(rt, "s.sock"), Grace: time.Second, CrashDelay: 10 * time.Millisecond, Store: store, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(true); s.Wait() })
	started := func(n int) {
		t.Helper()
		waitUntil(t, "the agent's start", func() bool {
			select {
			case <-s.Done():
				t.Fatalf("the supervisor stopped before start %d: %s", n, s.Wait().Reason)
			default:
			}
			return s.starts() >= n && s.currentAgent() != nil && s.session() != ""
		})
	}
	b := &binder{s: s}
	restart := func(peer int) {
		t.Helper()
		resp := b.handle(context.Background(), control.Request{Op: control.OpRestart, Now: true, Reason: "asked"},
			control.Peer{UID: os.Getuid(), PID: peer})
		if !resp.OK {
			t.Fatalf("the restart was refused: %+v", resp)
		}
	}
	started(1)
	name := s.session()
	// The person, from another shell (the test's parent stands for it),
	// four times: more than the breaker's three.
	for i := 1; i <= 4; i++ {
		restart(os.Getppid())
		started(i + 1)
	}
	st, err := store.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if st.Halted != "" || st.NoProgress != 0 {
		t.Fatalf("after 4 restarts the person asked for: halted %q, no progress %d", st.Halted, st.NoProgress)
	}
	// The agent asking from inside its own tree: its fresh agents made no
	// progress, and the third halts the session.
	for i := 1; i <= 3; i++ {
		restart(s.currentAgent().PID())
		if i < 3 {
			started(5 + i)
		}
	}
	select {
	case <-s.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the supervisor still runs after three restarts the agent asked for, each without progress")
	}
	if st, _ = store.Load(name); st.Halted == "" || st.LastExit != CauseNoProgress {
		t.Fatalf("after 3 restarts the agent asked for: halted %q, last exit %q", st.Halted, st.LastExit)
	}
}
