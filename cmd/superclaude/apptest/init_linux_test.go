//go:build linux

package apptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/supervise"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/testkit/testbin"
	"github.com/superclaude/superclaude/watchdog"
)

// Superclaude as a container's first process (supervise/init.go): the real binary
// run as PID 1 of a new PID namespace, as `docker run` and a Kubernetes pod
// run it, on a real pty, with the fake agent.

// A container's processes are usually not the host user's (a pod's uid
// 1000 is nobody on the node): the tests run superclaude as a uid of their
// own when they can (as root, through setpriv), which also keeps this
// machine's other superclaudes, sweeping as root, away from the agent.
// Without root they run as the caller, in a user namespace.

// container is where a test's superclaude runs as PID 1.
type container struct {
	uid    int      // the uid it runs as; -1: the caller's
	prefix []string // the command line in front of superclaude's
}

// newContainer finds how to make a new PID namespace here
// (testbin.UnsharePID), and a uid of its own when root.
func newContainer(t *testing.T) container {
	t.Helper()
	prefix, asRoot := testbin.UnsharePID(t)
	if _, err := exec.LookPath("setpriv"); asRoot && err == nil {
		// A uid per test process, so that two runs at once do not share
		// one.
		uid := 61000 + os.Getpid()%4000
		return container{uid: uid, prefix: append(prefix, setpriv(uid)...)}
	}
	return container{uid: -1, prefix: prefix}
}

func setpriv(uid int) []string {
	return []string{"setpriv", "--reuid=" + strconv.Itoa(uid), "--regid=" + strconv.Itoa(uid), "--clear-groups", "--"}
}

// newInitHarness is a harness whose files the container's uid owns: its
// directory, and copies of superclaude and of this test binary (the agent)
// in it, where that uid can run them.
func newInitHarness(t *testing.T, c container, env ...string) *harness {
	t.Helper()
	root, err := os.MkdirTemp("", "sc-pid1-") // short: socket paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	h := newHarness(t, env...)
	bin, agent := filepath.Join(root, "superclaude"), filepath.Join(root, "agent.test")
	for src, dst := range map[string]string{h.bin: bin, os.Args[0]: agent} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.bin, h.dir = bin, root
	h.sessions, h.agentLog = filepath.Join(root, "sessions"), filepath.Join(root, "agent.jsonl")
	for _, d := range []string{"home", "runtime", "claude"} {
		os.Mkdir(filepath.Join(root, d), 0o700)
	}
	h.env = append(h.env,
		"HOME="+filepath.Join(root, "home"),
		"SUPERCLAUDE_AGENT="+agent,
		"SUPERCLAUDE_SESSIONS_DIR="+h.sessions,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(root, "state"),
		"XDG_RUNTIME_DIR="+filepath.Join(root, "runtime"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(root, "claude"),
		fakeagent.EnvLog+"="+h.agentLog,
		fakeagent.EnvSuperclaude+"="+bin,
	)
	if c.uid >= 0 {
		filepath.Walk(root, func(path string, _ os.FileInfo, err error) error {
			if err == nil {
				err = os.Lchown(path, c.uid, c.uid)
			}
			return err
		})
	}
	return h
}

// startAsInit starts superclaude with args as PID 1 of a new PID
// namespace, on a pty.
func (h *harness) startAsInit(t *testing.T, c container, args ...string) *testbin.Init {
	t.Helper()
	argv := append(append(append([]string{}, c.prefix...), h.bin), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = h.env, h.dir
	return testbin.StartInit(t, cmd, "superclaude")
}

// runAsInit starts superclaude, with the fake agent, as PID 1 of a new PID
// namespace.
func runAsInit(t *testing.T, env ...string) (container, *harness, *testbin.Init) {
	t.Helper()
	c := newContainer(t)
	h := newInitHarness(t, c, env...)
	return c, h, h.startAsInit(t, c)
}

// busy waits for the agent to start and has it say it is in the middle of
// a turn, where Claude Code says so.
func busy(t *testing.T, r *testbin.Init) {
	t.Helper()
	at := r.Expect(t, 0, "FAKE-AGENT READY", timeout)
	r.Type("busy")
	r.Expect(t, at, "STATUS busy", timeout)
}

// A container's PID 1 reaps every orphan of its namespace: the agent's
// (its tools' `cmd &`) and those of a process that entered the namespace
// from outside, as `kubectl exec` and `docker exec` do, which were never
// superclaude's descendants. None is left a zombie.
func TestPID1ReapsTheNamespacesOrphans(t *testing.T) {
	c, h, r := runAsInit(t)
	at := r.Expect(t, 0, "FAKE-AGENT READY", timeout)

	r.Type("orphans 10")
	r.Expect(t, at, "ORPHANS 10", timeout)
	// kubectl exec: a shell put into the namespace by nsenter, whose
	// parent stays outside; its background jobs outlive it.
	shell := []string{"nsenter", "--target", strconv.Itoa(r.PID), "--pid", "--mount", "--"}
	if c.uid >= 0 {
		shell = append(shell, setpriv(c.uid)...) // as the container's user
	}
	shell = append(shell, "/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8 9 10; do sleep 2 >/dev/null 2>&1 & done")
	if out, err := exec.Command(shell[0], shell[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("nsenter: %v %s", err, out)
	}
	adopted := 0
	var seen []string
	for _, p := range r.Inside() {
		if p.PPID == r.PID && testbin.Comm(p.PID) == "sleep" {
			adopted++
		}
		seen = append(seen, fmt.Sprintf("%d<-%d %s", p.PID, p.PPID, testbin.Comm(p.PID)))
	}
	if adopted < 10 {
		t.Fatalf("%d orphans were reparented to superclaude (pid %d), want at least the 10 from outside; in its namespace: %v", adopted, r.PID, seen)
	}

	deadline := time.Now().Add(10 * time.Second)
	for {
		var zombies, sleeping []int
		for _, p := range r.Inside() {
			switch {
			case p.Zombie:
				zombies = append(zombies, p.PID)
			case testbin.Comm(p.PID) == "sleep":
				sleeping = append(sleeping, p.PID)
			}
		}
		select {
		case <-r.Done():
			// Its namespace went with it: nothing is left to count.
			t.Fatalf("superclaude exited before its orphans were reaped; the agent: %+v\n%s", h.records(), r.Output())
		default:
		}
		if len(zombies) == 0 && len(sleeping) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("zombies left in superclaude's namespace: %v (still sleeping: %v)", zombies, sleeping)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.Type("exit 0")
	if code := r.Wait(t, timeout); code != 0 {
		t.Fatalf("superclaude exited %d, want the agent's 0", code)
	}
}

// `docker stop` and a pod's deletion send SIGTERM to PID 1: superclaude
// lets claude finish the turn it is in, then passes the SIGTERM on, and
// exits with claude's code; a second SIGTERM does not wait.
func TestPID1SIGTERMStopsTheAgentAfterItsTurn(t *testing.T) {
	t.Run("after the turn", func(t *testing.T) {
		_, h, r := runAsInit(t)
		busy(t, r)
		if err := syscall.Kill(r.PID, syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		if exits := h.events("exit"); len(exits) != 0 {
			t.Fatalf("the agent was stopped in the middle of its turn: %+v", exits)
		}
		select {
		case <-r.Done():
			t.Fatalf("superclaude exited in the middle of the agent's turn:\n%s", r.Output())
		default:
		}
		r.Type("idle")
		if code := r.Wait(t, timeout); code != 143 {
			t.Fatalf("superclaude exited %d, want the agent's 143", code)
		}
		// The agent got SIGTERM and ended by itself (143), not SIGKILL.
		if exits := h.events("exit"); len(exits) != 1 || exits[0].Code != 143 {
			t.Fatalf("the agent's exit: %+v", exits)
		}
		if n := len(h.events("start")); n != 1 {
			t.Fatalf("the agent was started %d times, want once", n)
		}
	})
	t.Run("a second SIGTERM", func(t *testing.T) {
		_, _, r := runAsInit(t)
		busy(t, r)
		syscall.Kill(r.PID, syscall.SIGTERM)
		time.Sleep(500 * time.Millisecond)
		start := time.Now()
		syscall.Kill(r.PID, syscall.SIGTERM)
		if code := r.Wait(t, timeout); code != 143 {
			t.Fatalf("superclaude exited %d, want the agent's 143", code)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("the second SIGTERM took %s to stop the agent; it should not wait for the turn", took)
		}
	})
}

// What superclaude exits with, as PID 1, is the agent's code — the
// container's exit code, which Kubernetes and Docker report.
func TestPID1ExitCodePassesThrough(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    []string
		typed  string // typed once the agent is ready
		signal bool   // SIGTERM from outside once the agent is ready
		want   int
	}{
		{name: "the agent exits", typed: "exit 0", want: 0},
		{name: "the agent fails as it starts", env: []string{fakeagent.EnvExit + "=42"}, want: 42},
		{name: "SIGTERM from outside", signal: true, want: 143},
		{name: "an agent that ignores SIGTERM is killed after the grace", env: []string{fakeagent.EnvIgnoreTerm + "=1"}, signal: true, want: 128 + 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, r := runAsInit(t, tc.env...)
			if tc.typed != "" || tc.signal {
				r.Expect(t, 0, "FAKE-AGENT READY", timeout)
			}
			if tc.typed != "" {
				r.Type(tc.typed)
			}
			if tc.signal {
				syscall.Kill(r.PID, syscall.SIGTERM)
			}
			if code := r.Wait(t, timeout); code != tc.want {
				t.Fatalf("superclaude as PID 1 exited %d, want %d:\n%s", code, tc.want, r.Output())
			}
		})
	}
}

// Regression: a superclaude on the host swept a container's agent. The
// agent's marker names its supervisor as PID 1 of the container; read on
// the host, PID 1 is the host's init, started at another time, so the
// supervisor looked dead and the host's predecessor sweep (every
// superclaude runs one as it starts) ended the container's running agent.
// A marker is only evidence in its own PID namespace.
func TestASweepOnTheHostLeavesAContainersAgentAlone(t *testing.T) {
	c, h, r := runAsInit(t)
	r.Expect(t, 0, "FAKE-AGENT READY", timeout)
	agent := h.events("start")[0]

	// The host's superclaude runs as the same user as the container's.
	rep := watchdog.SweepPredecessors(context.Background(), time.Second, nil)
	if c.uid >= 0 {
		sweep := exec.Command("setpriv", append(setpriv(c.uid)[1:], os.Args[0])...)
		sweep.Env = append(os.Environ(), reexec.Env("sweep", ""))
		out, err := sweep.Output()
		if err != nil {
			t.Fatalf("the sweep as uid %d: %v %s", c.uid, err, out)
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			t.Fatalf("the sweep's report %q: %v", out, err)
		}
	}
	for _, id := range append(rep.Killed, rep.Survivors...) {
		for _, p := range r.Inside() {
			if id.PID == p.PID {
				t.Errorf("the host's sweep signalled %v, a process of the container", id)
			}
		}
	}
	time.Sleep(500 * time.Millisecond)
	if exits := h.events("exit"); len(exits) != 0 {
		t.Fatalf("the container's agent (pid %d in the container) was ended by the host's sweep: %+v", agent.PID, exits)
	}
	r.Type("exit 0")
	if code := r.Wait(t, timeout); code != 0 {
		t.Fatalf("superclaude exited %d, want the agent's 0", code)
	}
}

// The example Kubernetes manifest gives the pod time for superclaude's wait
// for the turn, its grace to claude after it, and room to spare: a pod
// killed by the kubelet before that loses the turn. (Its own module's test,
// deploy/kubernetes, cannot import supervise and holds a copy of the wait.)
func TestTheManifestsGraceCoversTheWaitForTheTurn(t *testing.T) {
	b, err := os.ReadFile("../../../deploy/kubernetes/superclaude.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*terminationGracePeriodSeconds:\s*(\d+)\s*$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the manifest has no terminationGracePeriodSeconds")
	}
	n, _ := strconv.Atoi(string(m[1]))
	if want := supervise.DefaultPolicy.TurnWait + 10*time.Second; time.Duration(n)*time.Second < want {
		t.Fatalf("terminationGracePeriodSeconds: %d; superclaude waits up to %s for the turn on SIGTERM: want at least %s",
			n, supervise.DefaultPolicy.TurnWait, want)
	}
}
