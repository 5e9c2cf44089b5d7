package apptest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/testbin"
)

type harness struct {
	t        testing.TB
	bin      string
	dir      string
	sessions string
	agentLog string
	env      []string
}

func newHarness(t testing.TB, env ...string) *harness {
	t.Helper()
	dir := t.TempDir()
	runtime, err := os.MkdirTemp("", "sc-rt-") // short: socket paths have a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	if os.Getenv("DEBUGLOG") != "" {
		t.Cleanup(func() {
			b, _ := os.ReadFile(filepath.Join(dir, "state", "superclaude.log"))
			t.Logf("supervisor log:\n%s", b)
		})
	}
	h := &harness{t: t, bin: testbin.Superclaude(t), dir: dir,
		sessions: filepath.Join(dir, "sessions"), agentLog: filepath.Join(dir, "agent.jsonl")}
	h.env = append(os.Environ(),
		"SUPERCLAUDE_AGENT="+os.Args[0],
		"SUPERCLAUDE_SESSIONS_DIR="+h.sessions,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"),
		"XDG_RUNTIME_DIR="+runtime,
		"SUPERCLAUDE_PANE_ID=",
		"SUPERCLAUDE_GRACE=2s",
		"SUPERCLAUDE_CRASH_DELAY=10ms",
		"TMUX=",
		fakeagent.EnvSuperclaude+"="+h.bin,
	)
	h.env = append(h.env, fakeagent.Env(h.agentLog)...)
	h.env = append(h.env, env...)
	return h
}

func (h *harness) command(args ...string) *exec.Cmd {
	cmd := exec.Command(h.bin, args...)
	cmd.Env = h.env
	cmd.Dir = h.dir
	return cmd
}

func (h *harness) start(args ...string) *testbin.PTY {
	return testbin.StartPTY(h.t, h.command(args...))
}

// records reads the fake agent's log.
func (h *harness) records() []fakeagent.Record { return fakeagent.ReadLog(h.agentLog) }

func (h *harness) events(kind string) []fakeagent.Record { return fakeagent.ReadLog(h.agentLog, kind) }

// waitStarts waits until the agent has been started n times.
func (h *harness) waitStarts(n int, timeout time.Duration) []fakeagent.Record {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if s := h.events("start"); len(s) >= n {
			return s
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the agent was started %d times, want %d; log: %+v", len(h.events("start")), n, h.records())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// agentStarts returns when the supervisor exec'd each agent, from its
// event log.
func (h *harness) agentStarts() []time.Time {
	evs, _ := h.store().Events("")
	var out []time.Time
	for _, ev := range evs {
		if ev.Kind == "agent-start" {
			out = append(out, ev.Time)
		}
	}
	return out
}

func (h *harness) store() *state.Store {
	s, err := state.OpenIn(h.sessions, filepath.Join(h.dir, "state", "index"))
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// session returns the session the supervisor with that pid owns. The
// supervisor makes its own session once its agent has started, so a test
// that has just seen the agent start may ask before it is there: it is
// waited for, a few seconds at most.
func (h *harness) session(supervisor int) *state.Session {
	h.t.Helper()
	id, err := proc.Of(supervisor)
	if err != nil {
		h.t.Fatalf("supervisor %d: %v", supervisor, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		sess, err := h.store().FindByOwner(id)
		if err == nil {
			return sess
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no session for supervisor %d: %v", supervisor, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cooked checks that the terminal superclaude ran on is back in the mode
// a shell expects.
func cooked(t *testing.T, p *testbin.PTY) {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(p.Slave.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ICANON == 0 || tio.Lflag&unix.ECHO == 0 || tio.Lflag&unix.ISIG == 0 || tio.Oflag&unix.OPOST == 0 {
		t.Fatalf("terminal left raw: lflag %#x oflag %#x", tio.Lflag, tio.Oflag)
	}
}

// userArgs strips what superclaude injects in front of claude's arguments
// (--settings FILE --plugin-dir DIR) after checking it is there.
func userArgs(t testing.TB, args []string) []string {
	t.Helper()
	var out []string
	found := 0
	for i := 0; i < len(args); i++ {
		if (args[i] == "--settings" || args[i] == "--plugin-dir") && i+1 < len(args) {
			found++
			i++
			continue
		}
		out = append(out, args[i])
	}
	if found != 2 {
		t.Fatalf("no injected --settings/--plugin-dir in %q", args)
	}
	return out
}

const timeout = 20 * time.Second

func TestOverflowRestartRoundTrip(t *testing.T) {
	h := newHarness(t)
	p := h.start()
	at := p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	sup := p.Cmd.Process.Pid
	name := h.session(sup).Name

	// The status line binds the conversation; the overflow guard marks it;
	// /session dehydrate runs `superclaude +session restart` from a Bash
	// tool — here the fake agent does each in turn.
	p.Type("bind " + convID("1"))
	at = p.Expect(t, at, "STATUSLINE ", timeout)
	p.Type("overflow")
	at = p.Expect(t, at, "HOOK {", timeout)
	p.Type("restart")

	starts := h.waitStarts(2, timeout)
	second := userArgs(t, starts[1].Args)
	// The fresh agent starts with the continuation; the line typed last
	// ("restart", which the overflowed session's prompt hook may not have
	// let through) may follow it as the person's carried words.
	wantPrompt := claude.ContinuePrompt(name, "", "")
	if len(second) == 0 || !strings.HasPrefix(second[0], wantPrompt) || slices.Contains(second, "--resume") {
		t.Fatalf("restarted with %q, want the prompt %q and no --resume", second, wantPrompt)
	}
	if exits := h.events("exit"); len(exits) != 1 || exits[0].Code != 143 || exits[0].PID != starts[0].PID {
		t.Fatalf("first agent exits: %+v", exits)
	}
	// The decision's write may still be on its way to the disk as the
	// fresh agent starts: the supervisor holds the state's lock, and
	// renames the new file in place while the agent starts (supervise's
	// recordDecision). A read without the lock can come first (CI,
	// 2026-12-02): read it once the write is done.
	var st *state.State
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if st, err = h.store().Load(name); err != nil {
			t.Fatal(err)
		}
		if st.Restarts > 0 || time.Now().After(deadline) {
			break
		}
	}
	// What run.sh wrote (docs/design.md#who-moves-it): killRequested
	// cleared, restartPrompt deleted, lifecycle restarting, sessionId
	// gone, overflowed kept for /session continue's activate to clear,
	// pid the supervisor's.
	if st.KillRequested || st.RestartPrompt != "" || st.Lifecycle != state.Restarting || st.SessionID != "" ||
		!st.Overflowed || st.PID != sup || st.Restarts != 1 {
		t.Fatalf("state after the restart: %+v", st)
	}

	// The agent restarted without dehydrating itself: the supervisor
	// wrote the context, from what it knows.
	dehydrated, err := os.ReadFile(filepath.Join(h.session(sup).Dir, state.DehydratedFile))
	if err != nil || !strings.Contains(string(dehydrated), "# Dehydrated context of session "+name) {
		t.Fatalf("no dehydrated context written by the supervisor: %v %q", err, dehydrated)
	}

	p.Expect(t, at, "FAKE-AGENT READY", timeout)
	p.Type("exit 0")
	if code := p.Wait(t, timeout); code != 0 {
		t.Fatalf("superclaude exited %d, want the agent's 0", code)
	}
	cooked(t, p)
}

// Issue 9: an agent whose context overflowed but that never dehydrates —
// it sits at a prompt, or it is stuck — is dehydrated and restarted by the
// supervisor once SUPERCLAUDE_DEHYDRATE_WAIT has passed.
func TestSupervisorDehydratesAnOverflowedAgentThatDoesNot(t *testing.T) {
	h := newHarness(t, "SUPERCLAUDE_DEHYDRATE_WAIT=1s")
	p := h.start()
	at := p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	sup := p.Cmd.Process.Pid
	name := h.session(sup).Name
	p.Type("bind " + convID("1"))
	at = p.Expect(t, at, "STATUSLINE ", timeout)
	p.Type("overflow")
	p.Expect(t, at, "HOOK {", timeout)

	starts := h.waitStarts(2, timeout)
	second := userArgs(t, starts[1].Args)
	if len(second) == 0 || second[0] != claude.ContinuePrompt(name, "", "") || slices.Contains(second, "--resume") {
		t.Fatalf("restarted with %q", second)
	}
	if _, err := os.Stat(filepath.Join(h.session(sup).Dir, state.DehydratedFile)); err != nil {
		t.Fatalf("no dehydrated context: %v", err)
	}
	// The fresh agent has yet to activate the session (restarting): no
	// second restart follows, however long it takes.
	time.Sleep(3 * time.Second)
	if n := len(h.events("start")); n != 2 {
		t.Fatalf("the agent was started %d times, want 2", n)
	}
	p.Type("exit 0")
	p.Wait(t, timeout)
}

func TestFleetResumeAfterTheSupervisorIsRestarted(t *testing.T) {
	for _, tc := range []struct {
		name     string
		overflow bool
		stop     syscall.Signal
	}{
		{"stopped with SIGTERM, resumes (S3)", false, syscall.SIGTERM},
		{"killed with SIGKILL, resumes (S3)", false, syscall.SIGKILL},
		{"overflowed, starts fresh (S9)", true, syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, "SUPERCLAUDE_PANE_ID=fleet:main:SDK")
			p := h.start()
			at := p.Expect(t, 0, "FAKE-AGENT READY", timeout)
			p.Type("bind 11111111-2222-4333-8444-555555555555")
			at = p.Expect(t, at, "STATUSLINE ", timeout)
			if tc.overflow {
				p.Type("overflow")
				p.Expect(t, at, "HOOK {", timeout)
			}
			p.Cmd.Process.Signal(tc.stop)
			code := p.Wait(t, timeout)
			if tc.stop == syscall.SIGTERM && code != 143 {
				t.Fatalf("superclaude exited %d on SIGTERM, want the agent's 143", code)
			}
			if tc.stop == syscall.SIGTERM {
				cooked(t, p)
			}
			// A supervisor killed outright leaves the agent to the pty's
			// hangup; wait for it to go.
			first := h.events("start")[0]
			for deadline := time.Now().Add(timeout); proc.Alive(proc.Identity{PID: first.PID, Start: first.Start}); {
				if time.Now().After(deadline) {
					t.Fatal("the first agent outlived its supervisor")
				}
				time.Sleep(20 * time.Millisecond)
			}

			p2 := h.start()
			p2.Expect(t, 0, "FAKE-AGENT READY", timeout)
			args := userArgs(t, h.waitStarts(2, timeout)[1].Args)
			sess := h.session(p2.Cmd.Process.Pid)
			if tc.overflow {
				if slices.Contains(args, "--resume") || sess.State.Lifecycle != state.Active || sess.State.SessionID != "" {
					t.Fatalf("overflowed session: args %q, state %+v", args, sess.State)
				}
			} else {
				want := []string{"--resume", "11111111-2222-4333-8444-555555555555"}
				if fmt.Sprint(args) != fmt.Sprint(want) || sess.State.Lifecycle != state.Resuming {
					t.Fatalf("resumed with %q (state %+v), want %q", args, sess.State, want)
				}
			}
			if sess.State.FleetPaneID != "fleet:main:SDK" {
				t.Fatalf("pane %q", sess.State.FleetPaneID)
			}
			p2.Type("exit 0")
			if code := p2.Wait(t, timeout); code != 0 {
				t.Fatalf("exit %d", code)
			}
		})
	}
}

func TestAgentIgnoringTermIsKilledAtTheGrace(t *testing.T) {
	h := newHarness(t, fakeagent.EnvIgnoreTerm+"=1", "SUPERCLAUDE_GRACE=400ms")
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	requested := time.Now()
	p.Type("restart")
	starts := h.waitStarts(2, timeout)
	if waited := starts[1].Time.Sub(requested); waited < 400*time.Millisecond {
		t.Fatalf("the next agent started %s after the request, before the grace", waited)
	}
	first := proc.Identity{PID: starts[0].PID, Start: starts[0].Start}
	if proc.Alive(first) {
		t.Fatal("the agent that ignored SIGTERM is still alive")
	}
	// The supervisor's event log says it took SIGKILL.
	evs, _ := h.store().Events("")
	killed := false
	for _, ev := range evs {
		if ev.Kind == "agent-exit" && ev.Detail["signal"] == float64(9) {
			killed = true
		}
	}
	if !killed {
		t.Fatalf("no agent-exit by SIGKILL in the event log: %+v", evs)
	}
	p.Type("exit 0")
	p.Wait(t, timeout)
}

func TestSetsidGrandchildIsGoneAfterTheRestart(t *testing.T) {
	h := newHarness(t, fakeagent.EnvGrandchild+"=1")
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	gcs := h.events("grandchild")
	if len(gcs) != 1 {
		t.Fatalf("grandchildren: %+v", gcs)
	}
	gc := proc.Identity{PID: gcs[0].PID, Start: gcs[0].Start}
	if !proc.Alive(gc) {
		t.Fatal("grandchild not running to begin with")
	}
	p.Type("restart")
	h.waitStarts(2, timeout)
	if proc.Alive(gc) {
		t.Fatalf("the grandchild (pid %d, own session) survived the restart", gc.PID)
	}
	p.Type("exit 0")
	p.Wait(t, timeout)
	// Nothing of the second agent's is left either.
	for _, g := range h.events("grandchild") {
		if id := (proc.Identity{PID: g.PID, Start: g.Start}); proc.Alive(id) {
			t.Fatalf("grandchild %d outlived superclaude", g.PID)
		}
	}
}

func TestExitCodeIsTheAgents(t *testing.T) {
	// One-shot runs: claude's code, whatever it is, and for signal n what
	// a shell shows, 128+n: superclaude dies by the agent's signal.
	for _, tc := range []struct {
		exit string
		want int
	}{{"0", 0}, {"1", 1}, {"143", 143}, {"signal:9", 137}, {"signal:15", 143}, {"signal:1", 129}} {
		t.Run("-p exit "+tc.exit, func(t *testing.T) {
			h := newHarness(t, fakeagent.EnvExit+"="+tc.exit)
			err := h.command("-p", "hi").Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
				if ws := ee.Sys().(syscall.WaitStatus); ws.Signaled() {
					code = 128 + int(ws.Signal())
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.want {
				t.Fatalf("superclaude exited %d, want %d", code, tc.want)
			}
			if n := len(h.events("start")); n != 1 {
				t.Fatalf("a one-shot run was started %d times", n)
			}
		})
	}
	// Interactive: the user's own exits.
	for _, tc := range []struct {
		name string
		do   func(p *testbin.PTY)
		want int
	}{
		{"/exit", func(p *testbin.PTY) { p.Type("exit 0") }, 0},
		{"SIGTERM to superclaude", func(p *testbin.PTY) { p.Cmd.Process.Signal(syscall.SIGTERM) }, 143},
		{"SIGHUP to superclaude", func(p *testbin.PTY) { p.Cmd.Process.Signal(syscall.SIGHUP) }, 129},
		{"SIGINT to superclaude", func(p *testbin.PTY) { p.Cmd.Process.Signal(syscall.SIGINT) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			p := h.start()
			p.Expect(t, 0, "FAKE-AGENT READY", timeout)
			tc.do(p)
			if code := p.Wait(t, timeout); code != tc.want {
				t.Fatalf("superclaude exited %d, want %d", code, tc.want)
			}
			cooked(t, p)
			if n := len(h.events("start")); n != 1 {
				t.Fatalf("the agent was restarted after the user's exit (%d starts)", n)
			}
		})
	}
}

func TestCrashLoopStopsAtTheIntensityLimit(t *testing.T) {
	// A crash by a signal: a run that exits non-zero as it starts is not
	// started again at all (next test).
	h := newHarness(t, fakeagent.EnvExit+"=signal:9", "SUPERCLAUDE_MAX_CRASHES=3", "SUPERCLAUDE_CRASH_DELAY=50ms", "SUPERCLAUDE_PROFILE=generic")
	p := h.start()
	code := p.Wait(t, timeout)
	if code != 128+9 {
		t.Fatalf("superclaude exited %d, want the agent's 137 (SIGKILL)", code)
	}
	// suture's threshold of 3 is passed on the fourth failure.
	if n := len(h.events("start")); n != 4 {
		t.Fatalf("the agent was started %d times, want 4", n)
	}
	out := p.Output()
	if !strings.Contains(out, "crashed more than 3 times") || !strings.Contains(out, "not restarting") {
		t.Fatalf("no readable reason after the terminal was restored:\n%s", out)
	}
	cooked(t, p)
	// Regression: +why's last event said a restart would come; the event
	// log now ends with why there was none.
	log, _ := os.ReadFile(filepath.Join(h.sessions, state.EventsFile))
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"kind":"stopped"`) || !strings.Contains(last, "crashed more than 3 times") {
		t.Errorf("the event log ends with %s, want why the supervisor stopped", last)
	}
}

// An agent that fails as the person starts it (an option it does not know,
// no network) ends once with its code, as the plain agent does, instead of
// drawing the same error five times before the crash limit — whatever its
// profile (issue 16: a codex given a bad flag printed its error 6 times).
func TestAnAgentThatFailsAsItStartsIsNotStartedAgain(t *testing.T) {
	for _, profile := range []string{"claude", "codex", "gemini", "generic"} {
		t.Run(profile, func(t *testing.T) {
			h := newHarness(t, fakeagent.EnvExit+"=2", "SUPERCLAUDE_CRASH_DELAY=50ms", "SUPERCLAUDE_PROFILE="+profile)
			p := h.start()
			if code := p.Wait(t, timeout); code != 2 {
				t.Fatalf("superclaude exited %d, want the agent's 2", code)
			}
			if n := len(h.events("start")); n != 1 {
				t.Fatalf("the agent was started %d times, want once", n)
			}
			cooked(t, p)
		})
	}
}

func TestSIGUSR1RestartsAndResumes(t *testing.T) {
	h := newHarness(t)
	p := h.start()
	at := p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	p.Type("bind " + convID("7"))
	p.Expect(t, at, "STATUSLINE ", timeout)
	p.Cmd.Process.Signal(syscall.SIGUSR1)
	starts := h.waitStarts(2, timeout)
	if fmt.Sprint(userArgs(t, starts[1].Args)) != fmt.Sprint([]string{"--resume", convID("7")}) {
		t.Fatalf("restarted with %q", starts[1].Args)
	}
	p.Type("exit 0")
	p.Wait(t, timeout)
}

// Restart theft (docs/glossary.md, seed 003): a supervisor other than the
// session's own picked up its restart and started the agent in the wrong
// pane. Here a restart of B's session asked from A's agent (its environment
// names A's supervisor) reaches B's own supervisor, which restarts B's
// agent; A's supervisor never acts on it, and A's session is untouched.
func TestNoRestartTheftAcrossPanes(t *testing.T) {
	h := newHarness(t)
	a := h.start()
	a.Expect(t, 0, "FAKE-AGENT READY", timeout)
	b := h.start()
	b.Expect(t, 0, "FAKE-AGENT READY", timeout)
	supA, supB := strconv.Itoa(a.Cmd.Process.Pid), strconv.Itoa(b.Cmd.Process.Pid)
	sessA := h.session(a.Cmd.Process.Pid)
	sessB := h.session(b.Cmd.Process.Pid)

	aStart := h.events("start")[0]
	cmd := h.command("+session", "restart", "--session", sessB.Name)
	cmd.Env = append(cmd.Env, mapEnv(aStart.Env)...)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "pid "+supB) {
		t.Fatalf("restart of B's session from A's agent: %v %s", err, out)
	}
	starts := h.waitStarts(3, timeout)
	third := starts[2]
	if third.Env["CLAUDE_SUPERVISOR_PID"] != supB {
		t.Fatalf("the restart was taken by supervisor %s, not B's %s", third.Env["CLAUDE_SUPERVISOR_PID"], supB)
	}
	if !slices.Contains(third.Args, claude.ContinuePrompt(sessB.Name, "", "")) {
		t.Fatalf("B restarted with %q", third.Args)
	}
	time.Sleep(200 * time.Millisecond)
	for _, st := range h.events("start")[2:] {
		if st.Env["CLAUDE_SUPERVISOR_PID"] == supA {
			t.Fatalf("A's supervisor started an agent: %+v", st)
		}
	}
	if st, _ := h.store().Load(sessA.Name); st.KillRequested || st.RestartPrompt != "" {
		t.Fatalf("A's session was written: %+v", st)
	}
	a.Type("exit 0")
	b.Type("exit 0")
	a.Wait(t, timeout)
	b.Wait(t, timeout)
}

// With no live supervisor owning the session, a restart is refused and
// the state file is left byte for byte as it was (it used to get
// killRequested and a restart prompt that nobody would act on).
func TestRestartWithoutALiveOwnerWritesNothing(t *testing.T) {
	h := newHarness(t)
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	sess := h.session(p.Cmd.Process.Pid)
	p.Type("exit 0")
	p.Wait(t, timeout)
	path := filepath.Join(sess.Dir, state.StateFile)
	before, _ := os.ReadFile(path)
	out, err := h.command("+session", "restart", "--session", sess.Name).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is stopped: no superclaude runs its agent, so nothing was restarted") {
		t.Fatalf("restart without an owner: %v %s", err, out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatalf("the state changed:\n%s\n→\n%s", before, after)
	}
}

func mapEnv(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}
