package supervise

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Issue 21, partial row: a restart request that came from what a previous
// agent left — its hook, still running after the decision — wrote the
// restart into the state and the event log, and killed the fresh agent.
// A request from a process the supervisor adopted (a descendant of the
// supervisor, not of its running agent) is refused, and a refused request
// changes nothing: no state field, no event, no kill. One from outside
// (another shell of the user) is taken.
func TestARequestFromAGoneAgentChangesNothing(t *testing.T) {
	s, store, ag := burstSupervisor(t)

	leftover := exec.Command("sleep", "30") // the supervisor's child, not the agent's
	if err := leftover.Start(); err != nil {
		t.Fatal(err)
	}
	defer leftover.Process.Kill()
	before, _ := store.Events("x")
	b := &binder{s: s}
	resp := b.handle(context.Background(), control.Request{Op: control.OpRestart, Session: store.Root + "/x", Now: true},
		control.Peer{UID: os.Getuid(), PID: leftover.Process.Pid})
	if resp.OK {
		t.Fatalf("a request from a gone agent's leftover was taken: %+v", resp)
	}
	st, _ := store.Load("x")
	if st.KillRequested || st.RestartPrompt != "" || st.Lifecycle != state.Active {
		t.Fatalf("the refused request wrote the state: %+v", st)
	}
	if after, _ := store.Events("x"); len(after) != len(before) {
		t.Fatalf("the refused request wrote %d events", len(after)-len(before))
	}
	time.Sleep(200 * time.Millisecond)
	if !proc.Alive(ag.Identity()) {
		t.Fatal("the refused request killed the running agent")
	}
	// From outside the supervisor's tree (the test's parent stands for
	// another shell of the user) it is taken.
	resp = b.handle(context.Background(), control.Request{Op: control.OpRestart, Session: store.Root + "/x", Now: true},
		control.Peer{UID: os.Getuid(), PID: os.Getppid()})
	if !resp.OK {
		t.Fatalf("a request from outside was refused: %+v", resp)
	}
}

// The requester's ancestry is climbed one process at a time (no snapshot
// of the process table, which cost a +session restart 150–200 ms with
// 1,000 more processes on the machine: issue 22): the running agent's own
// descendants, however far below it, ask for it; the supervisor's other
// children are what a gone agent left; the rest is outside the tree.
func TestTheAgentsDescendantsAreNotTakenForAGoneAgents(t *testing.T) {
	s, _, ag := supervisorOf(t, child.Spec{Path: "/bin/sh", Args: []string{"-c", "sleep 30 </dev/null >/dev/null 2>&1 & wait"}})
	var hook int
	waitUntil(t, "the agent's child", func() bool {
		tree, _ := proc.Tree(ag.PID())
		if len(tree) > 0 {
			hook = tree[0].PID
		}
		return hook != 0
	})
	defer syscall.Kill(hook, syscall.SIGKILL)
	leftover := exec.Command("sleep", "30")
	if err := leftover.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { leftover.Process.Kill(); leftover.Wait() }()
	for _, tc := range []struct {
		name string
		pid  int
		gone bool
		who  requester
	}{
		{"the agent", ag.PID(), false, inAgent},
		{"the agent's child", hook, false, inAgent},
		{"the supervisor's other child", leftover.Process.Pid, true, inGoneAgent},
		{"a shell outside", os.Getppid(), false, outsideTree},
		{"no peer credentials", 0, false, requesterUnknown},
	} {
		if got := s.fromGoneAgent(tc.pid); got != tc.gone {
			t.Errorf("%s (pid %d): from a gone agent %v, want %v", tc.name, tc.pid, got, tc.gone)
		}
		// Only a request from outside is the person's (Exit.ByPerson).
		if got := s.requesterOf(tc.pid); got != tc.who {
			t.Errorf("%s (pid %d): requester %d, want %d", tc.name, tc.pid, got, tc.who)
		}
	}
}
