package e2e

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
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
type podRun struct{ *testbin.Init }

// startPod starts superclaude as PID 1 of a new PID namespace, as the
// example manifest's container (deploy/kubernetes/superclaude.yaml).
func (w *world) startPod() *podRun {
	w.t.Helper()
	prefix, _ := testbin.UnsharePID(w.t)
	cmd := exec.Command(prefix[0], append(prefix[1:], w.superclaude)...)
	cmd.Dir, cmd.Env = w.project, w.env
	return &podRun{testbin.StartInit(w.t, cmd, "superclaude")}
}

// claude returns the claude superclaude runs in the pod (not a process
// claude started itself): the one given superclaude's --plugin-dir.
func (r *podRun) claude() (proc.Identity, bool) {
	for _, p := range r.Inside() {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if testbin.Comm(p.PID) == "claude" && strings.Contains(string(cmdline), "--plugin-dir\x00") {
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
	if err := syscall.Kill(pod.PID, syscall.SIGTERM); err != nil {
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
	syscall.Kill(pod.PID, syscall.SIGTERM) // claude is idle: no wait
	if code := pod.Wait(t, wait); code != 143 {
		t.Fatalf("the second pod's superclaude exited %d, want 143", code)
	}
}
