package supervise

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/state"
)

// tickPayload is a real status-line payload of Claude Code 2.1.330: 18 %
// of the context used, conversation 092ea89d-….
func tickPayload(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "claude", "testdata", "statusline-after-turn-175k.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newBinderSupervisor is a supervisor (this test process) with a sessions
// root and a pane, and no agent.
func newBinderSupervisor(t testing.TB) (*Supervisor, *state.Store) {
	t.Helper()
	dir := t.TempDir()
	store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSupervisor(Config{Store: store, Pane: "fleet:w:SDK"})
	if err != nil {
		t.Fatal(err)
	}
	return s, store
}

func lineOf(t testing.TB, r control.Response) claude.LineInfo {
	t.Helper()
	var info claude.LineInfo
	if !r.OK || json.Unmarshal(r.Data, &info) != nil {
		t.Fatalf("status-line answer %+v", r)
	}
	return info
}

// Regression (issue 8): the binder wrote every tick to the session it had
// cached at start, so a session a skill activated later never got its
// conversation id or its context usage. The binder must bind each tick to
// the session activated last.
func TestBinderBindsASessionActivatedAfterStart(t *testing.T) {
	s, store := newBinderSupervisor(t)
	if _, err := store.Activate("auto", "", state.Caller{Owner: s.self, Pane: s.cfg.Pane, Auto: true}); err != nil {
		t.Fatal(err)
	}
	if info := lineOf(t, s.statusLine(tickPayload(t))); info.Session != "auto" {
		t.Fatalf("first tick bound %q", info.Session)
	}
	// A skill activates its own session, in a project's sessions/ outside
	// the supervisor's root.
	project, err := state.OpenIn(filepath.Join(t.TempDir(), "proj", "sessions"), store.Index().Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := project.Activate("X", "implement", state.Caller{Owner: s.self, Pane: s.cfg.Pane}); err != nil {
		t.Fatal(err)
	}
	info := lineOf(t, s.statusLine(tickPayload(t)))
	if info.Session != "X" || info.Skill != "implement" {
		t.Fatalf("the tick after the skill's activation showed %+v", info)
	}
	x, err := project.Load("X")
	if err != nil {
		t.Fatal(err)
	}
	if x.SessionID != "092ea89d-33b0-4db4-8242-cd623ef49030" || x.ContextUsage != 0.18 {
		t.Fatalf("the skill's session did not get the tick: sessionId %q contextUsage %v", x.SessionID, x.ContextUsage)
	}
	// The status request names it too.
	var st Status
	r := (&binder{s: s}).handle(context.Background(), control.Request{Op: control.OpStatus}, control.Peer{})
	if json.Unmarshal(r.Data, &st) != nil || st.SessionDir != filepath.Join(project.Root, "X") {
		t.Fatalf("status: %+v", st)
	}
}

// Issue 8: the binder rewrote and fsynced .state.json on every tick even
// when the tick changed nothing. 300 identical ticks now write at most
// once (the first binds the conversation; the heartbeat alone is written
// at most every claude.HeartbeatEvery).
func TestIdenticalTicksWriteAtMostOnce(t *testing.T) {
	s, store := newBinderSupervisor(t)
	if _, err := store.Activate("auto", "", state.Caller{Owner: s.self, Pane: s.cfg.Pane, Auto: true}); err != nil {
		t.Fatal(err)
	}
	payload := tickPayload(t)
	before := store.Stats().Writes.Load()
	for i := 0; i < 300; i++ {
		lineOf(t, s.statusLine(payload))
	}
	if n := store.Stats().Writes.Load() - before; n != 1 {
		t.Fatalf("300 identical ticks wrote the state %d times, want 1", n)
	}
}

// BenchmarkBinderIdenticalTicks sends 300 identical status-line ticks over
// the control socket to a running binder, as Claude Code's status line
// does after every message, and reports the state writes and fsyncs they
// cost (goal: at most one write for the 300) and the time per tick.
func BenchmarkBinderIdenticalTicks(b *testing.B) {
	s, store := newBinderSupervisor(b)
	if _, err := store.Activate("auto", "", state.Caller{Owner: s.self, Pane: s.cfg.Pane, Auto: true}); err != nil {
		b.Fatal(err)
	}
	rt, err := os.MkdirTemp("", "sc-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(rt)
	sock := filepath.Join(rt, "s.sock")
	ln, err := control.Listen(sock)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go (&binder{s: s, ln: ln}).Serve(ctx)
	payload := tickPayload(b)
	client := control.NewClient(sock, s.self)
	var writes, syncs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w0, s0 := store.Stats().Writes.Load(), store.Stats().Syncs.Load()
		for j := 0; j < 300; j++ {
			var line claude.LineInfo
			if err := client.StatusLine(ctx, payload, &line); err != nil {
				b.Fatal(err)
			}
		}
		writes += store.Stats().Writes.Load() - w0
		syncs += store.Stats().Syncs.Load() - s0
	}
	b.StopTimer()
	b.ReportMetric(float64(writes)/float64(b.N), "writes/300ticks")
	b.ReportMetric(float64(syncs)/float64(b.N), "fsyncs/300ticks")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*300), "µs/tick")
}

// Issue 19: the dashboard's restart threw the conversation away; the
// person expected a resume. A restart asked for with Resume resumes the
// agent's conversation; without it, the agent starts fresh with the
// continuation prompt.
func TestARestartCanResumeOrStartFresh(t *testing.T) {
	for _, tc := range []struct {
		name   string
		resume bool
		want   string
	}{
		{"resume", true, "--resume " + conv1},
		{"fresh", false, "/superclaude:session continue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := os.MkdirTemp("", "sc-rs-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(rt)
			dir := t.TempDir()
			store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "index"))
			if err != nil {
				t.Fatal(err)
			}
			log, agent := filepath.Join(dir, "starts"), filepath.Join(dir, "agent")
			os.WriteFile(agent, []byte("#!/bin/sh\necho \"start $*\" >> \"$LOG\"\nexec sleep 30\n"), 0o700)
			s, err := newSupervisor(Config{Profile: Claude, Command: agent,
				Env: append(os.Environ(), "LOG="+log), Store: store, Dir: dir,
				Socket: filepath.Join(rt, "s.sock"), Grace: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan Result, 1)
			go func() { done <- s.run(ctx) }()
			defer func() { cancel(); <-done }()
			starts := func() []string {
				b, _ := os.ReadFile(log)
				return strings.Split(strings.TrimSpace(string(b)), "\n")
			}
			waitUntil(t, "the first start and its session", func() bool { return s.mine() != nil && len(starts()) == 1 && starts()[0] != "" })
			sess := s.mine()
			if _, err := store.Update(sess.Name, "test", func(st *state.State) error { st.SessionID = conv1; return nil }); err != nil {
				t.Fatal(err)
			}
			resp := (&binder{s: s}).handle(ctx, control.Request{Op: control.OpRestart, Reason: "from a test", Resume: tc.resume, Now: true}, control.Peer{})
			if !resp.OK {
				t.Fatalf("restart: %+v", resp)
			}
			waitUntil(t, "a second start", func() bool { return len(starts()) == 2 })
			if got := starts()[1]; !strings.Contains(got, tc.want) {
				t.Errorf("the second start ran with %q, want %q in it", got, tc.want)
			}
		})
	}
}

// conv1 is a conversation id of Claude Code's form (a UUID): the claude
// profile resumes no other.
const conv1 = "0c0c0c0c-0000-4000-8000-000000000001"

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
