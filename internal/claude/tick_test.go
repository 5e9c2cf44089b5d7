package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

func tickStore(t *testing.T) (*state.Store, proc.Identity) {
	t.Helper()
	s, err := state.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	me, _ := proc.Self()
	if _, err := s.Activate("S", "implement", state.Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	return s, me
}

func loadSession(t *testing.T, s *state.Store) *state.Session {
	t.Helper()
	st, err := s.Load("S")
	if err != nil {
		t.Fatal(err)
	}
	return &state.Session{Name: "S", Dir: filepath.Join(s.Root, "S"), State: st, Store: s}
}

// Tick writes only what changes: the first tick binds; the same tick again
// writes nothing — under a supervisor never, however long it ticks, since
// the supervisor writes the heartbeat itself (issue 22: an unchanged status
// line at 1 Hz cost a write and two fsyncs every 5 s); with no supervisor,
// the heartbeat once it is HeartbeatEvery old — and a new usage is written
// at once.
func TestTickWritesOnlyChanges(t *testing.T) {
	for _, supervised := range []bool{true, false} {
		s, me := tickStore(t)
		if !supervised {
			me = proc.Identity{}
		}
		tick, _ := ParseStatusLine(sample(t, "statusline-after-turn-175k.json"))
		// In the past, so that four heartbeats on is not in the future
		// (which the store refuses); the file keeps seconds.
		t0 := time.Now().Add(-5 * HeartbeatEvery).Truncate(time.Second)
		writes := func() int64 { return s.Stats().Writes.Load() }

		w0 := writes()
		res, err := Tick(loadSession(t, s), me, tick, t0, 0)
		if err != nil || !res.Wrote || res.Bound != tick.SessionID || writes() != w0+1 {
			t.Fatalf("supervised %v: first tick: %+v %v (%d writes)", supervised, res, err, writes()-w0)
		}
		if res.Info.Session != "S" || res.Info.Skill != "implement" || !res.Info.HasUsage {
			t.Fatalf("line info %+v", res.Info)
		}
		quiet := HeartbeatEvery - time.Millisecond
		if supervised {
			quiet = 3 * HeartbeatEvery
		}
		for at := time.Second; at <= quiet; at += time.Second {
			sess := loadSession(t, s)
			if info, ok := Peek(sess, me, tick, t0.Add(at), 0); !ok || info.Session != "S" {
				t.Fatalf("supervised %v: Peek of an identical tick at %v: %+v %v", supervised, at, info, ok)
			}
			res, err = Tick(sess, me, tick, t0.Add(at), 0)
			if err != nil || res.Wrote || res.Bound != "" {
				t.Fatalf("supervised %v: identical tick at %v: %+v %v", supervised, at, res, err)
			}
		}
		if writes() != w0+1 {
			t.Fatalf("supervised %v: identical ticks wrote %d times", supervised, writes()-w0-1)
		}
		if !supervised {
			res, _ = Tick(loadSession(t, s), me, tick, t0.Add(HeartbeatEvery), 0)
			if !res.Wrote {
				t.Fatal("with no supervisor the heartbeat was never written")
			}
		}
		busier := tick
		u := 40.0
		busier.ContextWindow.UsedPercentage = &u
		if _, ok := Peek(loadSession(t, s), me, busier, t0.Add(4*HeartbeatEvery), 0); ok {
			t.Fatalf("supervised %v: Peek answered a tick that has a new usage to write", supervised)
		}
		res, err = Tick(loadSession(t, s), me, busier, t0.Add(4*HeartbeatEvery), 0)
		if st, _ := s.Load("S"); err != nil || !res.Wrote || st.ContextUsage != 0.4 {
			t.Fatalf("supervised %v: a new usage was not written: %+v %v, stored %v", supervised, res, err, st.ContextUsage)
		}
	}
}

// A tick for a session whose file is gone binds nothing and recreates
// nothing.
func TestTickOnAVanishedSession(t *testing.T) {
	s, me := tickStore(t)
	sess := loadSession(t, s)
	if err := os.RemoveAll(sess.Dir); err != nil {
		t.Fatal(err)
	}
	tick, _ := ParseStatusLine(sample(t, "statusline-after-turn-175k.json"))
	if _, err := Tick(sess, me, tick, time.Now(), 0); err == nil {
		t.Fatal("a tick bound a vanished session")
	}
	if s.Exists("S") {
		t.Fatal("the tick recreated the session")
	}
}

// The handoff marker (issue 10): the fresh agent's first
// SessionStart is told that its predecessor's dehydrate and restart are
// done, and the marker is cleared so that it is delivered once.
func TestHandoffMarkerIsDeliveredOnce(t *testing.T) {
	s, _ := tickStore(t)
	if _, err := s.Update("S", "test", func(st *state.State) error {
		st.Handoff, st.Lifecycle = "overflow restart requested", state.Restarting
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.Root, "S", state.DehydratedFile), []byte("x"), 0o600)
	in := hook(t, "hook-SessionStart.json", nil)
	a, err := Hook("session-start", in, loadSession(t, s), Policy{})
	if err != nil || !strings.Contains(a.Context, "The handoff is done (overflow restart requested)") {
		t.Fatalf("first SessionStart: %+v %v", a, err)
	}
	if st, _ := s.Load("S"); st.Handoff != "" {
		t.Fatalf("the marker was not cleared: %+v", st)
	}
	a, _ = Hook("session-start", in, loadSession(t, s), Policy{})
	if strings.Contains(a.Context, "handoff is done") {
		t.Fatalf("the marker was delivered twice: %q", a.Context)
	}
}

// Regression, issue 19: a fresh agent after a restart someone asked for
// (+session restart, the dashboard) was told it was "a fresh context after
// an overflow restart (the context had not overflowed)". It is now told
// what happened, and only that.
func TestFreshContextIsToldWhyItWasRestarted(t *testing.T) {
	for _, tc := range []struct {
		name       string
		overflowed bool
		handoff    string
		want, not  string
	}{
		{"asked for", false, "a restart was asked for: a fresh start with the continuation prompt", "restarted on request", "overflow"},
		{"overflow", true, "the context window filled up: a fresh start with the continuation prompt", "the context window had filled up", "on request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := tickStore(t)
			if _, err := s.Update("S", "test", func(st *state.State) error {
				st.Handoff, st.Lifecycle, st.Overflowed = tc.handoff, state.Restarting, tc.overflowed
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(s.Root, "S", state.DehydratedFile), []byte("x"), 0o600)
			a, err := Hook("session-start", hook(t, "hook-SessionStart.json", nil), loadSession(t, s), Policy{})
			if err != nil || !strings.Contains(a.Context, tc.want) || strings.Contains(strings.ToLower(a.Context), tc.not) {
				t.Fatalf("SessionStart told the fresh agent: %q (%v); want %q, not %q", a.Context, err, tc.want, tc.not)
			}
		})
	}
}
