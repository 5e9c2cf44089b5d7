package state

import (
	"errors"
	"os"
	"path/filepath"
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
	idle, err := s.Prunable(now.Add(-7 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(idle) != 1 || idle[0].Name != "old-dead" || !idle[0].Since.Equal(t0) {
		t.Fatalf("Prunable = %+v, want only old-dead, idle since %v", idle, t0)
	}
}
