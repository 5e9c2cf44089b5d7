package supervise

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Regression: the automatic session's name search ended only at
// ErrNoSession, so a store error that was not about one name (a sessions
// root not yet created, before a fix in state; a root that is a file) spun
// the supervisor at full CPU before claude started.
func TestAutoNameEndsOnEveryStore(t *testing.T) {
	base := time.Now().Format("2006_01_02") + "_pane3"
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, root string)
		want    string // "" means an error
	}{
		{"root not created yet", func(*testing.T, string) {}, base},
		{"empty root", func(t *testing.T, root string) { mkdir(t, root) }, base},
		{"name taken by a corrupt file", func(t *testing.T, root string) {
			mkdir(t, filepath.Join(root, base))
			write(t, filepath.Join(root, base, state.StateFile), "{not json")
		}, base + "_2"},
		{"name taken by a link", func(t *testing.T, root string) {
			mkdir(t, root)
			if err := os.Symlink(t.TempDir(), filepath.Join(root, base)); err != nil {
				t.Fatal(err)
			}
		}, base + "_2"},
		{"root is a file", func(t *testing.T, root string) { write(t, root, "") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "sessions")
			tc.prepare(t, root)
			st, err := state.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			s := &Supervisor{cfg: Config{Store: st}}
			done := make(chan struct{})
			var got string
			go func() { defer close(done); got, err = s.autoName("%3", "/tmp/p") }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("autoName did not return")
			}
			if tc.want == "" {
				if err == nil {
					t.Errorf("autoName = %q, want an error", got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("autoName = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Regression: the agent's status was written only when it changed from
// the last status seen, not from the one stored, so a change seen while
// the session could not be found (or before a skill activated it) was
// never written while status-line ticks kept the heartbeat fresh: in a
// loaded e2e run a busy claude never showed busy. Each poll now writes
// what differs from the state.
func TestAgentStatusMissedOnceIsWrittenAtTheNextPoll(t *testing.T) {
	s, store := newBinderSupervisor(t)
	agent, err := child.Start(child.Spec{Path: "sleep", Args: []string{"30"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(agent.PID(), syscall.SIGKILL); agent.Wait() })
	s.mu.Lock()
	s.current = agent
	s.mu.Unlock()

	s.noteStatus("busy") // no session yet: nothing to write
	if _, err := store.Activate("X", "implement", state.Caller{Owner: s.self, Pane: s.cfg.Pane}); err != nil {
		t.Fatal(err)
	}
	// The status line's ticks keep the heartbeat fresh.
	if _, err := store.Update("X", "test", func(st *state.State) error { st.LastHeartbeat = time.Now(); return nil }); err != nil {
		t.Fatal(err)
	}
	s.noteStatus("busy") // the same status, the session now there
	st, err := store.Load("X")
	if err != nil {
		t.Fatal(err)
	}
	if st.AgentStatus != "busy" {
		t.Errorf("agentStatus = %q after two polls that saw busy, want busy", st.AgentStatus)
	}
}

// Regression, issue 19: every run left a session behind, even one whose
// agent failed as it started, and sessions piled up (ten after twenty
// minutes). The session a run made for itself is removed when the run
// began nothing; one holding anything of the person's, and one whose agent
// ran, are kept.
func TestARunThatBeganNothingLeavesNoSession(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		kept         bool
	}{
		{"the agent fails as it starts", "exit 3", false},
		// The session is made just after the agent starts: it waits.
		{"the agent leaves a file in its session", `for i in $(seq 250); do
			for d in "$ROOT"/*/; do [ -e "$d/.state.json" ] && echo note > "$d/notes.md" && exit 3; done; sleep 0.02
		done; exit 3`, true},
		{"the agent ran and ended", "exit 0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sock, root, st := socketAndStore(t)
			// The claude profile, whose policy stops a first start that
			// fails at once; sh takes the arguments it adds as $0….
			s, err := newSupervisor(Config{Profile: Claude, Command: "/bin/sh", Args: []string{"-c", tc.script},
				Env: append(os.Environ(), "ROOT="+root), Store: st, Dir: t.TempDir(), Policy: Policy{StartupFailWindow: 5 * time.Second},
				Socket: sock, Grace: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.start(context.Background()); err != nil {
				t.Fatal(err)
			}
			r := s.Wait()
			names, _ := st.Names()
			if got := len(names) == 1; got != tc.kept {
				t.Fatalf("sessions left: %v (result %+v), want kept=%v", names, r, tc.kept)
			}
			evs, _ := st.Events("")
			pidEntries, _ := os.ReadDir(filepath.Join(root, ".index", "pid"))
			if tc.kept {
				// What happened is +why's to tell: the events held while
				// the start could still fail are written.
				if len(evs) == 0 || evs[0].Kind != "transition" {
					t.Errorf("a kept session's events: %+v", evs)
				}
				return
			}
			// Issue 19: nothing at all is recorded for a run that never
			// started an agent — the removal used to stay in the event
			// log, and the index entry until a later lookup.
			if r.Session != "" {
				t.Errorf("the result names the removed session %q", r.Session)
			}
			if len(evs) != 0 {
				t.Errorf("the event log keeps %d lines of a run that began nothing: %+v", len(evs), evs)
			}
			if len(pidEntries) != 0 {
				t.Errorf("the lookup index keeps %d supervisor entries", len(pidEntries))
			}
			if left, _ := os.ReadDir(root); len(left) != 1 || left[0].Name() != ".index" {
				t.Errorf("left in the sessions directory: %v", left)
			}
		})
	}
}

// A session this run made, whose agent outlives the time in which a failed
// start is told apart, has its events written then, not only when the run
// ends: +why and +history of a running session show its start. An agent
// that says what it is doing has started: its events are written at once.
func TestARunningSessionsEventsAreWrittenAfterTheStartupWindow(t *testing.T) {
	t.Run("the window ends", func(t *testing.T) { testHeldEventsWritten(t, 300*time.Millisecond, nil) })
	t.Run("the agent says it is busy", func(t *testing.T) {
		testHeldEventsWritten(t, time.Hour, func(Running) (string, error) { return StatusBusy, nil })
	})
}

// socketAndStore gives a supervisor under test its control socket's path,
// in a short directory of its own (a socket's path is limited to about
// 100 bytes, which t.TempDir's can pass), and a store of sessions.
func socketAndStore(t *testing.T) (sock, root string, st *state.Store) {
	rt, err := os.MkdirTemp("", "sc-sess-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	root = filepath.Join(t.TempDir(), "sessions")
	if st, err = state.Open(root); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(rt, "s.sock"), root, st
}

func testHeldEventsWritten(t *testing.T, window time.Duration, status func(Running) (string, error)) {
	sock, _, st := socketAndStore(t)
	profile := Claude
	profile.Status, profile.Watch = status, nil
	s, err := newSupervisor(Config{Profile: profile, Command: "/bin/sh", Args: []string{"-c", "sleep 30"},
		Store: st, Dir: t.TempDir(), Policy: Policy{StartupFailWindow: window},
		Socket: sock, Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Wait()
	defer s.Stop(true)
	var evs []state.Event
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if evs, _ = st.Events(""); len(evs) >= 2 {
			break
		}
	}
	if len(evs) < 2 || evs[0].Kind != "transition" || evs[1].Kind != "agent-start" {
		t.Fatalf("a running session's first events: %+v", evs)
	}
}

// Issue 19: a session activated by hand in a shell holds its pane until
// the shell exits; a superclaude started there ran in a session of its own
// and nothing said why. The start now says so, in +why and on the
// terminal before the agent starts.
func TestAPaneHeldByAShellIsSaidSo(t *testing.T) {
	store, owner, run := handActivatedPane(t)
	s := run()
	if !strings.Contains(s.notice, "this pane's session handmade is held by pid "+strconv.Itoa(owner.PID)+", a shell") {
		t.Errorf("the notice for the person: %q", s.notice)
	}
	evs, _ := store.Events("")
	said := false
	for _, ev := range evs {
		if ev.Kind == "agent-start" && strings.Contains(ev.Reason, "the pane's session handmade is held by pid") {
			said = true
		}
	}
	if !said {
		t.Errorf("+why does not say why: %+v", evs)
	}
	if st, _ := store.Load("handmade"); !state.OwnedBy(st, owner) {
		t.Errorf("the shell's session was taken: %+v", st)
	}
}

// Issue 19: a session activated and then completed by hand in a shell
// (+session deactivate) still held its pane while that shell ran: the
// next superclaude there started in a session of its own, saying the
// pane's was held. Completed, it holds nothing: the start claims it.
func TestAPaneCompletedByHandIsNotHeld(t *testing.T) {
	store, _, run := handActivatedPane(t)
	if _, err := store.Deactivate("handmade", "done by hand", ""); err != nil {
		t.Fatal(err)
	}
	s := run()
	if strings.Contains(s.notice, "held") {
		t.Errorf("the notice for the person: %q; want none", s.notice)
	}
	if st, _ := store.Load("handmade"); st == nil || st.PID != os.Getpid() {
		t.Errorf("the completed session was not claimed by the pane's supervisor: %+v", st)
	}
}

// handActivatedPane makes session handmade of pane work:main:A, activated
// by hand in a "shell" (a live process with no control socket, killed
// when the test ends), and returns its store, the shell, and run, which
// runs a supervisor in that pane to its end.
func handActivatedPane(t *testing.T) (*state.Store, proc.Identity, func() *Supervisor) {
	t.Helper()
	rt, err := os.MkdirTemp("", "sc-held-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	dir := t.TempDir()
	store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	shell := exec.Command("sleep", "30")
	if err := shell.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shell.Process.Kill(); shell.Wait() })
	owner, err := proc.Of(shell.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Activate("handmade", "", state.Caller{Owner: owner, Pane: "work:main:A"}); err != nil {
		t.Fatal(err)
	}
	return store, owner, func() *Supervisor {
		s, err := newSupervisor(Config{Profile: Profiles["generic"], Command: "/bin/true", Store: store, Pane: "work:main:A",
			Dir: dir, Socket: filepath.Join(rt, "s.sock"), Grace: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		s.run(context.Background())
		return s
	}
}

// Issue 19: `superclaude +run --profile codex` in a pane where claude had
// run offered claude's conversation, and ran `codex resume <claude's id>`.
// A pane's conversation is resumed only by the agent CLI that had it.
func TestAPaneResumesOnlyItsOwnAgentsConversation(t *testing.T) {
	for _, tc := range []struct {
		was     string
		profile Profile
		resume  bool
	}{
		{"claude", Profiles["codex"], false},
		{"", Profiles["codex"], false}, // a file from before profiles: claude's
		{"codex", Profiles["codex"], true},
		{"claude", Claude, true},
	} {
		t.Run(tc.was+" then "+tc.profile.Name, func(t *testing.T) {
			dir := t.TempDir()
			store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
			if err != nil {
				t.Fatal(err)
			}
			dead := exec.Command("true")
			dead.Run()
			owner := proc.Identity{PID: dead.Process.Pid, Start: 1}
			if _, err := store.Activate("pane", "", state.Caller{Owner: owner, Pane: "work:main:A"}); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Update("pane", "test", func(st *state.State) error {
				st.SessionID, st.AgentProfile = conv1, tc.was
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			s, err := newSupervisor(Config{Profile: tc.profile, Command: "/bin/true", Store: store, Pane: "work:main:A",
				Dir: dir, Socket: filepath.Join(dir, "s.sock"), Grace: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			plan := s.startPlan()
			if got := plan.Action == Resume; got != tc.resume {
				t.Errorf("plan %s, want resume=%v", plan, tc.resume)
			}
			if !tc.resume && !strings.Contains(plan.Reason, "the pane's last one was claude's, which codex cannot resume") {
				t.Errorf("the plan's reason, for +why: %q", plan.Reason)
			}
		})
	}
}

// Issue 22: the decision's state write (two fsyncs) goes on while the next
// agent starts. A fresh start clears the old conversation's id; the new
// agent's first write (claude's SessionStart hook binding its own) must
// come after that, never under it, however slow the disk — or the new
// conversation would be forgotten.
func TestTheNewAgentsFirstWriteComesAfterTheDecision(t *testing.T) {
	rt, err := os.MkdirTemp("", "sc-record-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	st, err := state.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSupervisor(Config{Profile: Claude, Command: "/bin/true", Store: st, Socket: filepath.Join(rt, "s.sock")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Update("S", "test", func(st *state.State) error {
		st.Lifecycle, st.SessionID, st.StartedAt = state.Active, "conv-old", time.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	cur, err := st.Load("S")
	if err != nil {
		t.Fatal(err)
	}
	sess := &state.Session{Name: "S", Store: st, State: cur}
	testHookRecording = func() { time.Sleep(300 * time.Millisecond) }
	defer func() { testHookRecording = nil }()
	a := &agentService{s: s}
	a.recordDecision(sess, Plan{Action: Fresh, Prompt: "/superclaude:session continue --session S", Reason: "overflow"}, false)
	// The new agent binds its conversation as it starts.
	if _, err := st.Update("S", "session start", func(st *state.State) error {
		st.SessionID = "conv-new"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	a.recorded()
	got, err := st.Load("S")
	if err != nil {
		t.Fatal(err)
	}
	if got.SessionID != "conv-new" || got.Lifecycle != state.Restarting {
		t.Fatalf("after the decision and the new agent's write: conversation %q, lifecycle %s; want conv-new, restarting",
			got.SessionID, got.Lifecycle)
	}
}

// A crash restart of an agent whose session holds a garbled conversation
// id (an audit of issue 16: nothing checked it before `--resume <id>`)
// starts a new conversation: the agent is not given the id, the state
// forgets it, +why's event says why, and so does the run's end once the
// terminal is back.
func TestACrashRestartDoesNotGiveTheAgentAMalformedID(t *testing.T) {
	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := Profile{Name: "strict", Resume: appendArgs("--resume"), ValidID: isUUID}
	s := startSleeper(t, p, store, nil)
	st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	const evil = "--dangerously-skip-permissions"
	if _, err := store.Update(st.Session, "test", func(st *state.State) error { st.SessionID = evil; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(st.AgentPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s, "the restarted agent", func(now Status) bool { return now.AgentPID != 0 && now.AgentPID != st.AgentPID })
	evs, _ := store.Events(st.Session)
	var starts []state.Event
	for _, ev := range evs {
		if ev.Kind == "agent-start" {
			starts = append(starts, ev)
		}
	}
	if len(starts) != 2 {
		t.Fatalf("%d agent starts, want 2: %+v", len(starts), evs)
	}
	if args := fmt.Sprint(starts[1].Detail["args"]); strings.Contains(args, evil) {
		t.Errorf("the restarted agent was given the garbled id: %s", args)
	}
	if !strings.Contains(starts[1].Reason, "cannot be resumed") || !strings.Contains(starts[1].Reason, evil) {
		t.Errorf("the restart's reason (+why) does not say why it started fresh: %q", starts[1].Reason)
	}
	if now, _ := store.Load(st.Session); now.SessionID != "" {
		t.Errorf("the state keeps the garbled id %q", now.SessionID)
	}
	s.Stop(true)
	if res := s.Wait(); !strings.Contains(res.Message, "cannot be resumed") || !strings.Contains(res.Message, "a new conversation") {
		t.Errorf("the run's end does not tell the person: %q", res.Message)
	}
}

// Regression, issue 19: the run's end settles the session it leaves. Here
// the agent crashes past the crash limit: the last decision planned a
// resume (the session said "resuming"), which the crash limit calls off —
// and the session was left saying "resuming", and loading, with nothing
// running it. The run's last write makes it active.
func TestTheRunsEndSettlesItsSession(t *testing.T) {
	sock, _, store := socketAndStore(t)
	p := Profile{Name: "strict", Resume: appendArgs("--resume")}
	s, err := newSupervisor(Config{Profile: p, Command: "/bin/sh", Args: []string{"-c", "sleep 0.3; exit 2"},
		Store: store, Dir: t.TempDir(), Socket: sock, Grace: time.Second, CrashDelay: 10 * time.Millisecond,
		FailureThreshold: 2, FailureDecay: time.Minute, FailureBackoff: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.start(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	// A conversation the crashes resume.
	if _, err := store.Update(st.Session, "test", func(st *state.State) error {
		st.SessionID = "c0ffee00-0000-4000-8000-000000000001"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r := s.Wait()
	if !strings.Contains(r.Reason, "crashed more than") {
		t.Fatalf("the run ended with %+v, want the crash limit", r)
	}
	got, err := store.Load(st.Session)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lifecycle != state.Active || got.Loading != nil {
		t.Errorf("the session the run left says lifecycle %q, loading %v; want active, no loading", got.Lifecycle, got.Loading)
	}
	evs, _ := store.Events(st.Session)
	resumed := false
	for _, ev := range evs {
		resumed = resumed || ev.Kind == "agent-start" && ev.Detail["plan"] == "resume"
	}
	if !resumed {
		t.Errorf("no crash was resumed, so nothing here was ever resuming: %+v", evs)
	}
}

// Regression, issue 19: +resume N of a Codex or Gemini conversation ran
// claude, because nothing recorded which agent had it. Each agent's start
// and exit name its profile and command, which +history shows and +resume
// N runs.
func TestAgentEventsNameTheProfileAndCommand(t *testing.T) {
	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := startSleeper(t, Profile{Name: "mute"}, store, nil)
	st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	s.Stop(true)
	s.Wait()
	evs, _ := store.Events(st.Session)
	seen := 0
	for _, ev := range evs {
		if ev.Kind != "agent-start" && ev.Kind != "agent-exit" {
			continue
		}
		seen++
		if ev.Detail["profile"] != "mute" || ev.Detail["command"] != "/bin/sleep" {
			t.Errorf("%s names profile %v, command %v; want mute, /bin/sleep", ev.Kind, ev.Detail["profile"], ev.Detail["command"])
		}
	}
	if seen != 2 {
		t.Errorf("%d agent starts and exits logged, want 2: %+v", seen, evs)
	}
}
