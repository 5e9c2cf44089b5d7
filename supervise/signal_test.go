package supervise

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Attack 4 of issue 21, at the exact moment it was lost: a stop that comes
// just before the agent is started found no agent to kill, and the agent
// then ran on (here for 30 s). It must be stopped at once.
func TestStopAsTheAgentStartsIsHonoured(t *testing.T) {
	rt, err := os.MkdirTemp("", "sc-sig-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	s, err := newSupervisor(Config{Profile: Profiles["generic"], Command: "/bin/sleep", Args: []string{"30"},
		Socket: filepath.Join(rt, "s.sock"), Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	testHookBeforeStart = func(s *Supervisor) { s.stop(syscall.SIGTERM) }
	defer func() { testHookBeforeStart = nil }()
	res := make(chan Result, 1)
	go func() {
		if err := s.start(context.Background()); err != nil {
			t.Error(err)
			res <- Result{}
			return
		}
		res <- s.Wait()
	}()
	select {
	case r := <-res:
		if r.ExitCode != 128+int(syscall.SIGTERM) {
			t.Fatalf("exit %d (%s), want 143", r.ExitCode, r.Reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the agent ran on after a stop that came as it started")
	}
}
