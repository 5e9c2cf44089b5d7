package state

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// deadOwner is the identity of a process that has exited.
func deadOwner(t *testing.T) proc.Identity {
	t.Helper()
	id := startSleeper(t)
	p, _ := os.FindProcess(id.PID)
	p.Kill()
	deadline := time.Now().Add(5 * time.Second)
	for proc.Alive(id) {
		if time.Now().After(deadline) {
			t.Fatal("the sleeper did not die")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return id
}

func TestRemoveDeletesAStoppedSessionWholeAndSaysSo(t *testing.T) {
	s := newStore(t)
	dead := deadOwner(t)
	for _, name := range []string{"old", "keep"} {
		if _, err := s.Activate(name, "implement", Caller{Owner: dead}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(s.Root, "old", DehydratedFile), []byte("saved"), 0o600)
	os.MkdirAll(filepath.Join(s.Root, "old", "logs"), 0o700)
	os.WriteFile(filepath.Join(s.Root, "old", "logs", "a.log"), []byte("x"), 0o600)
	me, _ := proc.Self()
	if err := s.Remove("old", "removed by a test", me); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(s.Root, "old")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the session directory is still there: %v", err)
	}
	entries, _ := os.ReadDir(s.Root)
	for _, e := range entries {
		if strings.Contains(e.Name(), "old") {
			t.Errorf("left in the sessions directory: %s", e.Name())
		}
	}
	if _, err := s.Load("keep"); err != nil {
		t.Errorf("the other session: %v", err)
	}
	evs, _ := s.Events("old")
	if len(evs) == 0 || evs[len(evs)-1].Kind != "removed" || evs[len(evs)-1].Reason != "removed by a test" {
		t.Errorf("the removal is not in the event log: %+v", evs)
	}
	if err := s.Remove("old", "again", me); !errors.Is(err, ErrNoSession) {
		t.Errorf("removing it again: %v", err)
	}
}

func TestRemoveNeverTouchesALiveSession(t *testing.T) {
	s := newStore(t)
	live := startSleeper(t)
	if _, err := s.Activate("live", "", Caller{Owner: live}); err != nil {
		t.Fatal(err)
	}
	me, _ := proc.Self()
	if err := s.Remove("live", "test", me); !errors.Is(err, ErrLive) {
		t.Fatalf("Remove of a live session: %v", err)
	}
	if _, err := s.Load("live"); err != nil {
		t.Fatalf("the live session was touched: %v", err)
	}
	// Its own owner may remove it (a supervisor dropping the empty
	// session it made).
	if err := s.Remove("live", "test", live); err != nil {
		t.Fatalf("Remove by its owner: %v", err)
	}
}

// A link in a session directory, or a session directory that is a link, is
// never followed: what it points at is untouched.
func TestAttackRemoveFollowsNoLink(t *testing.T) {
	s := newStore(t)
	dead := deadOwner(t)
	if _, err := s.Activate("s", "", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	precious := filepath.Join(outside, "precious")
	os.WriteFile(precious, []byte("mine"), 0o600)
	os.Symlink(outside, filepath.Join(s.Root, "s", "escape"))
	os.Symlink(outside, filepath.Join(s.Root, "linked"))
	me, _ := proc.Self()
	if err := s.Remove("s", "test", me); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove("linked", "test", me); err == nil {
		t.Errorf("a session directory that is a link was removed")
	}
	if b, err := os.ReadFile(precious); err != nil || string(b) != "mine" {
		t.Fatalf("the file behind a link was touched: %q %v", b, err)
	}
	for _, bad := range []string{"..", "../x", ""} {
		if err := s.Remove(bad, "test", me); err == nil {
			t.Errorf("Remove(%q) succeeded", bad)
		}
	}
}

func TestPrunableListsOnlyIdleSessionsNobodyRuns(t *testing.T) {
	s := newStore(t)
	dead, live := deadOwner(t), startSleeper(t)
	now := t0
	s.Now = func() time.Time { return now }
	if _, err := s.Activate("old-dead", "", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("old-live", "", Caller{Owner: live}); err != nil {
		t.Fatal(err)
	}
	now = t0.Add(20 * 24 * time.Hour)
	if _, err := s.Activate("new-dead", "", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	idle, running, err := s.Prunable(now.Add(-7 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(idle) != 1 || idle[0].Name != "old-dead" || !idle[0].Since.Equal(t0) || running != 1 {
		t.Fatalf("Prunable = %+v and %d running, want only old-dead, idle since %v, and old-live running", idle, running, t0)
	}
}

// Issue 19: a removed session's entries stayed in the lookup index (its
// supervisor's, its pane's) until a later lookup noticed the directory had
// gone: a record of a session that no longer exists.
func TestRemoveLeavesNoIndexEntry(t *testing.T) {
	s := newStore(t)
	dead := deadOwner(t)
	if _, err := s.Activate("old", "", Caller{Owner: dead, Pane: "work:main:A"}); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(dead.PID)
	if _, ok := s.index.get(kindPID, pid); !ok {
		t.Fatal("the activation made no index entry for its owner: the test sees nothing")
	}
	me, _ := proc.Self()
	if err := s.Remove("old", "removed by a test", me); err != nil {
		t.Fatal(err)
	}
	for _, e := range [][2]string{{kindPID, pid}, {kindPane, "work:main:A"}} {
		if dir, ok := s.index.get(e[0], e[1]); ok {
			t.Errorf("the index's %s entry %s still names %s", e[0], e[1], dir)
		}
	}
}

// Held events (a run that may turn out to have begun nothing) reach the
// log only when released, in their order; dropped, they never do — the
// removal's own line included — while other sessions' events are written
// as they come.
func TestHeldEventsAreWrittenOnlyWhenReleased(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	dead := deadOwner(t)

	s.HoldEvents("kept")
	if _, err := s.Activate("kept", "", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	s.Append(Event{Session: "kept", Kind: "agent-start"})
	s.Append(Event{Session: "other", Kind: "agent-start"})
	if evs, _ := s.Events("kept"); len(evs) != 0 {
		t.Fatalf("held events reached the log: %+v", evs)
	}
	if evs, _ := s.Events("other"); len(evs) != 1 {
		t.Fatalf("another session's event was held: %+v", evs)
	}
	if n := s.ReleaseEvents("kept"); n != 2 {
		t.Errorf("released %d events, want 2", n)
	}
	evs, _ := s.Events("kept")
	if len(evs) != 2 || evs[0].Kind != "transition" || evs[1].Kind != "agent-start" {
		t.Errorf("released events: %+v", evs)
	}
	s.Append(Event{Session: "kept", Kind: "agent-exit"})
	if evs, _ := s.Events("kept"); len(evs) != 3 {
		t.Errorf("an event after the release was held: %+v", evs)
	}

	s.HoldEvents("dropped")
	if _, err := s.Activate("dropped", "", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove("dropped", "nothing happened", me); err != nil {
		t.Fatal(err)
	}
	if !s.DropEvents("dropped") {
		t.Error("DropEvents: the events were not held")
	}
	if evs, _ := s.Events("dropped"); len(evs) != 0 {
		t.Errorf("a dropped session left lines in the log: %+v", evs)
	}
	if s.DropEvents("dropped") || s.ReleaseEvents("dropped") != 0 {
		t.Error("events still held after DropEvents")
	}
}
