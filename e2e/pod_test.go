package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	claudepkg "github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// podRun is superclaude started as a pod's container starts it: PID 1 of a
// PID namespace of its own, on a terminal, with the pod's identity.
type podRun struct {
	*testbin.PTY
	pid int    // superclaude's PID outside the namespace
	ns  string // its PID namespace
}

// startPod starts superclaude as PID 1 of a new PID namespace, as the
// example manifest's container (deploy/kubernetes/superclaude.yaml).
func (w *world) startPod() *podRun {
	w.t.Helper()
	args := []string{"--pid", "--fork", "--mount-proc", "--kill-child"}
	if exec.Command("unshare", append(args, "true")...).Run() != nil {
		if os.Getenv("CI") != "" {
			w.t.Fatal("unshare cannot make a PID namespace here, in CI")
		}
		w.t.Skip("unshare cannot make a PID namespace here (needs root)")
	}
	cmd := exec.Command("unshare", append(args, w.superclaude)...)
	cmd.Dir, cmd.Env = w.project, w.env
	r := &podRun{PTY: testbin.StartPTY(w.t, cmd)}
	w.until("superclaude to start as PID 1", func() bool {
		snap, _ := proc.List()
		for _, p := range snap {
			if p.PPID == cmd.Process.Pid {
				r.pid = p.PID
			}
		}
		return r.pid != 0
	})
	var err error
	if r.ns, err = os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", r.pid)); err != nil {
		w.t.Fatal(err)
	}
	return r
}

// claude returns the claude running in the pod, if one is.
func (r *podRun) claude() (proc.Identity, bool) {
	snap, _ := proc.List()
	for _, p := range snap {
		ns, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", p.PID))
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", p.PID))
		if ns == r.ns && filepath.Base(exe) == "claude" {
			return p.Identity, true
		}
	}
	return proc.Identity{}, false
}

// typeLine types text and Enter as a person does: claude takes text and
// Enter in one write for a paste.
func (r *podRun) typeLine(text string) {
	r.Master.Write([]byte(text))
	time.Sleep(300 * time.Millisecond)
	r.Master.Write([]byte("\r"))
}

// A fleet member as a pod: deleting the pod (SIGTERM to superclaude, its
// PID 1) while claude streams a reply lets the reply finish before claude
// is stopped; the pod started again resumes the same conversation, found
// by the pod's identity (SUPERCLAUDE_PANE_ID), as the example manifest
// promises.
func TestPodStopWaitsForTheTurnAndTheNextPodResumes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const pane = "k8s:e2e:superclaude-sdk"
	w.setEnv("SUPERCLAUDE_PANE_ID=" + pane)
	podSession := func(what string, ok func(*state.State) bool) *state.State {
		var st *state.State
		w.until(what, func() bool {
			sess, err := w.store().FindByPane(pane)
			if err == nil {
				st = sess.State
			}
			return err == nil && ok(st)
		})
		return st
	}

	pod := w.startPod()
	podSession("the pod's session to bind claude's conversation", func(st *state.State) bool { return st.SessionID != "" })
	hold := make(chan struct{})
	w.api.Push(fakeapi.Reply{Content: fakeapi.Text("a long answer, at last").Content, Hold: hold})
	mark := w.api.Mark()
	pod.typeLine("think for a while")
	if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "think for a while") }); !ok {
		t.Fatal("the prompt never reached the API")
	}
	busy := podSession("claude to be busy", func(st *state.State) bool { return st.AgentStatus == "busy" })
	claude, ok := pod.claude()
	if !ok {
		t.Fatal("no claude in the pod")
	}

	// kubectl delete pod: the kubelet sends SIGTERM to the container's
	// PID 1.
	if err := syscall.Kill(pod.pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if !proc.Alive(claude) {
		t.Fatal("claude was stopped in the middle of its reply")
	}
	close(hold)
	if code := pod.Wait(t, wait); code != 143 {
		t.Fatalf("superclaude exited %d, want claude's 143 after SIGTERM", code)
	}
	if h, err := claudepkg.ReadTranscript(busy.TranscriptPath); err != nil || !slices.Contains(h.Replies, "a long answer, at last") {
		t.Fatalf("the reply did not finish before claude was stopped: %v %+v", err, h.Replies)
	}

	// The pod again, with the same identity and home: claude resumes the
	// conversation.
	starts := len(w.agentStarts())
	pod = w.startPod()
	w.until("claude to start again", func() bool { return len(w.agentStarts()) > starts })
	if args := w.agentStarts()[starts]; !slices.Contains(args, "--resume") || !slices.Contains(args, busy.SessionID) {
		t.Fatalf("the next pod started claude with %q, want --resume %s", args, busy.SessionID)
	}
	podSession("the resumed conversation to bind", func(st *state.State) bool { return st.SessionID == busy.SessionID })
	syscall.Kill(pod.pid, syscall.SIGTERM) // claude is idle: no wait
	if code := pod.Wait(t, wait); code != 143 {
		t.Fatalf("the second pod's superclaude exited %d, want 143", code)
	}
}
