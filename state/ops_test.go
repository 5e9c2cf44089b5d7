package state

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// full is a session with every field of .state.json set to a value no
// command writes, so that any write shows up as a change.
const full = `{
  "pid": 777777,
  "sessionId": "abc-123-def",
  "skill": "implement",
  "lifecycle": "dehydrating",
  "loading": false,
  "overflowed": true,
  "killRequested": false,
  "contextUsage": 0.72,
  "currentPhase": "Phase 3: Execution",
  "fleetPaneId": "fleet:company:SDK",
  "targetFile": "IMPLEMENTATION_LOG.md",
  "sessionDescription": "old description",
  "keywords": "old,keywords",
  "startedAt": "2026-02-07T10:00:00Z",
  "lastHeartbeat": "2026-02-07T11:00:00Z",
  "restartPrompt": "old prompt",
  "toolCallsSinceLastLog": 7,
  "toolCallsByTranscript": {"abc123.jsonl": 5},
  "toolUseWithoutLogsWarnAfter": 5,
  "toolUseWithoutLogsBlockAfter": 20,
  "custom": "kept"
}`

// changedFields lists every key whose JSON differs between two states.
func changedFields(t *testing.T, before, after *State) []string {
	t.Helper()
	var a, b map[string]json.RawMessage
	ab, _ := before.MarshalJSON()
	bb, _ := after.MarshalJSON()
	json.Unmarshal(ab, &a)
	json.Unmarshal(bb, &b)
	var out []string
	for k, v := range b {
		if string(a[k]) != string(v) {
			out = append(out, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k+"(deleted)")
		}
	}
	sort.Strings(out)
	return out
}

// TestWriterAudit checks each session command against what it is given to
// write (docs/design.md#who-moves-it): exactly these fields change, to
// these values.
func TestWriterAudit(t *testing.T) {
	me, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd    string
		body   string // the file before; full when empty
		run    func(s *Store) (*State, error)
		writes []string
		check  func(t *testing.T, st *State)
	}{
		{
			cmd:  "activate",
			body: strings.Replace(full, `"killRequested": false`, `"killRequested": true`, 1),
			run: func(s *Store) (*State, error) {
				return s.Activate("sess", "test", Caller{Owner: me, Pane: "fleet:meta:Sessions"})
			},
			// startedAt stays: the session already has one.
			writes: []string{"activatedAt", "fleetPaneId", "killRequested", "lifecycle", "loading", "overflowed",
				"pid", "pidBoot", "pidStart", "skill", "toolCallsSinceLastLog",
				"toolUseWithoutLogsBlockAfter", "toolUseWithoutLogsWarnAfter"},
			check: func(t *testing.T, st *State) {
				if st.PID != me.PID || st.PIDStart != me.Start || st.Skill != "test" || st.Lifecycle != Active ||
					st.Loading == nil || !*st.Loading || st.Overflowed || st.KillRequested ||
					st.FleetPaneID != "fleet:meta:Sessions" || st.ToolCallsSinceLastLog != 0 ||
					st.ToolUseWithoutLogsWarnAfter != 3 || st.ToolUseWithoutLogsBlockAfter != 10 {
					t.Errorf("activate wrote %+v", st)
				}
			},
		},
		{
			cmd:    "phase",
			run:    func(s *Store) (*State, error) { return s.Phase("sess", "Phase 4: Verify") },
			writes: []string{"currentPhase", "lastHeartbeat", "loading(deleted)", "toolCallsByTranscript"},
			check: func(t *testing.T, st *State) {
				if st.CurrentPhase != "Phase 4: Verify" || !st.LastHeartbeat.Equal(t0) || st.Loading != nil || len(st.ToolCallsByTranscript) != 0 || st.ToolCallsByTranscript == nil {
					t.Errorf("phase wrote %+v", st)
				}
			},
		},
		{
			cmd:    "deactivate",
			run:    func(s *Store) (*State, error) { return s.Deactivate("sess", "did things\nand more\n", "a,b") },
			writes: []string{"keywords", "lastHeartbeat", "lifecycle", "sessionDescription"},
			check: func(t *testing.T, st *State) {
				if st.Lifecycle != Completed || st.SessionDescription != "did things\nand more" || st.Keywords != "a,b" {
					t.Errorf("deactivate wrote %+v", st)
				}
			},
		},
		{
			cmd:    "deactivate without description or keywords",
			run:    func(s *Store) (*State, error) { return s.Deactivate("sess", "", "") },
			writes: []string{"lastHeartbeat", "lifecycle"},
		},
		{
			cmd:    "restart",
			run:    func(s *Store) (*State, error) { return s.RequestRestart("sess", false, testPrompt) },
			writes: []string{"contextUsage", "killRequested", "restartPrompt", "sessionId(deleted)"},
			check: func(t *testing.T, st *State) {
				want := `continue implement at Phase 3: Execution`
				if !st.KillRequested || st.RestartPrompt != want || st.ContextUsage != 0 || st.SessionID != "" {
					t.Errorf("restart wrote %+v", st)
				}
			},
		},
		{
			cmd:    "target",
			run:    func(s *Store) (*State, error) { return s.Target("sess", "TESTING_LOG.md") },
			writes: []string{"targetFile"},
		},
		{
			cmd: "update",
			run: func(s *Store) (*State, error) {
				return s.Set("sess", []string{"toolUseWithoutLogsBlockAfter=30", "note=free text"})
			},
			writes: []string{"note", "toolUseWithoutLogsBlockAfter"},
			check: func(t *testing.T, st *State) {
				raw, _ := st.Extra("note")
				if st.ToolUseWithoutLogsBlockAfter != 30 || string(raw) != `"free text"` {
					t.Errorf("update wrote %+v %s", st, raw)
				}
			},
		},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			s := newStore(t)
			body := tc.body
			if body == "" {
				body = full
			}
			seed(t, s, "sess", body)
			before, err := s.Load("sess")
			if err != nil {
				t.Fatal(err)
			}
			after, err := tc.run(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := changedFields(t, before, after); strings.Join(got, " ") != strings.Join(tc.writes, " ") {
				t.Errorf("%s wrote %v, want %v", tc.cmd, got, tc.writes)
			}
			if tc.check != nil {
				tc.check(t, after)
			}
			// What Update returned is what the file holds.
			onDisk, err := s.Load("sess")
			if err != nil {
				t.Fatal(err)
			}
			if got := changedFields(t, after, onDisk); len(got) != 0 {
				t.Errorf("file differs from result in %v", got)
			}
		})
	}
}

func TestCommandsOnMissingSessionFail(t *testing.T) {
	s := newStore(t)
	for name, op := range map[string]func() (*State, error){
		"phase":      func() (*State, error) { return s.Phase("nope", "x") },
		"deactivate": func() (*State, error) { return s.Deactivate("nope", "", "") },
		"restart":    func() (*State, error) { return s.RequestRestart("nope", false, testPrompt) },
		"target":     func() (*State, error) { return s.Target("nope", "f") },
		"update":     func() (*State, error) { return s.Set("nope", []string{"a=1"}) },
	} {
		if _, err := op(); !errors.Is(err, ErrNoSession) {
			t.Errorf("%s on a missing session: %v", name, err)
		}
	}
	if s.Exists("nope") {
		t.Error("a command created the missing session")
	}
}

func TestUpdateRejectsWrongTypesNamingTheField(t *testing.T) {
	s := newStore(t)
	seed(t, s, "sess", full)
	for _, a := range []string{"overflowed=maybe", "pid=abc", "lifecycle=overflow", "startedAt=yesterday", "novalue"} {
		_, err := s.Set("sess", []string{a})
		key, _, _ := strings.Cut(a, "=")
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("update %s: %v", a, err)
		}
	}
}

// startSleeper returns the identity of a live process other than this one.
func startSleeper(t *testing.T) proc.Identity {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	id, err := proc.Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestActivateEnforcesOneLiveOwnerPerSession(t *testing.T) {
	s := newStore(t)
	other := startSleeper(t)
	me, _ := proc.Self()
	if _, err := s.Activate("sess", "a", Caller{Owner: other}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("sess", "b", Caller{Owner: me}); !errors.Is(err, ErrOwned) {
		t.Fatalf("activate over a live owner: %v", err)
	}
	// The same owner re-activates (S8, skill switch).
	if st, err := s.Activate("sess", "c", Caller{Owner: other}); err != nil || st.Skill != "c" {
		t.Fatalf("same owner: %+v %v", st, err)
	}
	// An owner whose PID was reused is dead: the start time differs.
	stale := other
	stale.Start++
	if _, err := s.Update("sess", "test", func(st *State) error { st.PIDStart = stale.Start; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("sess", "d", Caller{Owner: me}); err != nil {
		t.Fatalf("takeover from a recycled pid: %v", err)
	}
}

func TestActivateClaimsThePaneFromOtherSessions(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	if _, err := s.Activate("old", "a", Caller{Owner: me, Pane: "fleet:w:SDK"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("new", "b", Caller{Owner: me, Pane: "fleet:w:SDK"}); err != nil {
		t.Fatal(err)
	}
	old, _ := s.Load("old")
	if old.FleetPaneID != "" {
		t.Fatalf("old session kept the pane: %q", old.FleetPaneID)
	}
	got, err := s.FindByPane("fleet:w:SDK")
	if err != nil || got.Name != "new" {
		t.Fatalf("FindByPane = %+v, %v", got, err)
	}
}

// testPrompt stands in for an agent profile's restart prompt, which the
// caller of RequestRestart computes from the state under the lock.
func testPrompt(st *State) string { return "continue " + st.Skill + " at " + st.CurrentPhase }

func TestMineIsTheOwnersLatestActivationThenThePane(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	other := startSleeper(t)
	if _, err := s.Activate("other-pane", "a", Caller{Owner: other, Pane: "fleet:w:P"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("first", "a", Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Mine(me, "fleet:w:P"); err != nil || got.Name != "first" {
		t.Fatalf("owner first: %+v %v", got, err)
	}
	// A second activation by the same supervisor moves the answer (S8,
	// R3), and so does re-activating the first one (S7).
	if _, err := s.Activate("second", "b", Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Mine(me, ""); err != nil || got.Name != "second" {
		t.Fatalf("after a second activation: %+v %v", got, err)
	}
	if _, err := s.Activate("first", "a", Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Mine(me, ""); err != nil || got.Name != "first" {
		t.Fatalf("after re-activating the first: %+v %v", got, err)
	}
	// The latest activation also wins when the index is rebuilt.
	if err := os.RemoveAll(s.Index().Dir); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Mine(me, ""); err != nil || got.Name != "first" {
		t.Fatalf("after a rebuild: %+v %v", got, err)
	}
	// A pane's session owned by another live supervisor is not mine.
	stranger := proc.Identity{PID: 999999999}
	if got, err := s.Mine(stranger, "fleet:w:P"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another live supervisor's pane session: %+v %v", got, err)
	}
	if _, err := s.Mine(stranger, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	// An owner recorded with another start time is not this process.
	if _, err := s.Update("first", "test", func(st *State) error { st.PIDStart++; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindByOwner(me); !errors.Is(err, ErrNotFound) {
		t.Fatalf("owner with the wrong start time found: %+v %v", got, err)
	}
}

func TestMineFindsASessionInAnotherRoot(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index")
	home, err := OpenIn(filepath.Join(t.TempDir(), "user"), idx)
	if err != nil {
		t.Fatal(err)
	}
	project, _ := OpenIn(filepath.Join(t.TempDir(), "proj", "sessions"), idx)
	me, _ := proc.Self()
	if _, err := home.Activate("auto", "", Caller{Owner: me, Pane: "f:w:p", Auto: true}); err != nil {
		t.Fatal(err)
	}
	// A skill names the project's own sessions directory.
	if _, err := project.Activate("X", "implement", Caller{Owner: me, Pane: "f:w:p"}); err != nil {
		t.Fatal(err)
	}
	got, err := home.Mine(me, "f:w:p")
	if err != nil || got.Dir != filepath.Join(project.Root, "X") || got.Store.Root != project.Root {
		t.Fatalf("Mine from the user's root = %+v, %v", got, err)
	}
	if p, err := home.FindByPane("f:w:p"); err != nil || p.Dir != got.Dir {
		t.Fatalf("the pane moved with the activation: %+v %v", p, err)
	}
	// The supervisor's own session was taken over: completed, not a
	// second live session of the pane.
	auto, _ := home.Load("auto")
	if auto.Lifecycle != Completed || auto.FleetPaneID != "" {
		t.Fatalf("the auto session after the skill's activation: %+v", auto)
	}
	// Both roots are known to the index, so a view can list them.
	roots := home.Index().Roots()
	if len(roots) != 2 {
		t.Fatalf("roots %v", roots)
	}
	// And a rebuild from nothing still finds the session in the project.
	os.RemoveAll(filepath.Join(idx, kindPID))
	os.RemoveAll(filepath.Join(idx, "built"))
	if got, err := home.Mine(me, ""); err != nil || got.Dir != filepath.Join(project.Root, "X") {
		t.Fatalf("after a rebuild: %+v %v", got, err)
	}
}

func TestIndexIsCheckedAgainstTheFiles(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	if _, err := s.Activate("a", "x", Caller{Owner: me, Pane: "p1"}); err != nil {
		t.Fatal(err)
	}

	// A file edited behind the index's back: the hit is checked and the
	// index rebuilt.
	seed(t, s, "a", strings.Replace(full, "fleet:company:SDK", "p2", 1))
	if _, err := s.FindByPane("p1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stale hit trusted: %v", err)
	}
	if got, err := s.FindByPane("p2"); err != nil || got.Name != "a" {
		t.Fatalf("after edit: %+v %v", got, err)
	}

	// A session directory created by another tool makes the index stale.
	time.Sleep(10 * time.Millisecond) // a new root mtime tick
	seed(t, s, "foreign", strings.Replace(full, "fleet:company:SDK", "p3", 1))
	if got, err := s.FindByPane("p3"); err != nil || got.Name != "foreign" {
		t.Fatalf("foreign session: %+v %v", got, err)
	}

	// A lost index is rebuilt.
	if err := os.RemoveAll(s.Index().Dir); err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindByPane("p2"); err != nil || got.Name != "a" {
		t.Fatalf("after losing the index: %+v %v", got, err)
	}

	// A corrupt file is skipped and reported, not fatal.
	var reported []error
	s.Report = func(err error) { reported = append(reported, err) }
	seed(t, s, "a", "{broken")
	if _, err := s.FindByPane("p2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("corrupt: %v", err)
	}
	if len(reported) == 0 || !strings.Contains(reported[0].Error(), StateFile) {
		t.Fatalf("corrupt file not reported: %v", reported)
	}
}

func TestTransitionsAreLogged(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	if _, err := s.Activate("sess", "implement", Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RequestRestart("sess", false, testPrompt); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Activate("other", "x", Caller{}); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events("sess")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 {
		t.Fatalf("events = %+v", evs)
	}
	if evs[0].Reason != "activate implement" || evs[0].Changes["lifecycle"][1] != "active" || evs[0].Actor != "test" || !evs[0].Time.Equal(t0) {
		t.Errorf("activate event = %+v", evs[0])
	}
	if c := evs[1].Changes["killRequested"]; c[0] != false || c[1] != true || evs[1].Reason != "restart requested" {
		t.Errorf("restart event = %+v", evs[1])
	}
	if _, deleted := evs[1].Changes["sessionId"]; deleted {
		t.Errorf("restart logged a sessionId change though none was bound: %+v", evs[1])
	}
}

func TestLeaseKeepsAConversationToOneLiveSupervisor(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	other := startSleeper(t)
	if _, ok, err := s.Lease("conv-1", other); !ok || err != nil {
		t.Fatalf("first lease: %v %v", ok, err)
	}
	if holder, ok, _ := s.Lease("conv-1", me); ok || holder != other {
		t.Fatalf("a second live supervisor got the lease (holder %+v)", holder)
	}
	if _, ok, _ := s.Lease("conv-1", other); !ok {
		t.Fatal("the holder was refused its own lease")
	}
	if _, ok, _ := s.Lease("conv-2", me); !ok {
		t.Fatal("another conversation was refused")
	}
	// A dead holder's lease is taken over.
	dead := other
	dead.Start++
	s2 := newStore(t)
	s2.Lease("conv-3", dead)
	if _, ok, _ := s2.Lease("conv-3", me); !ok {
		t.Fatal("a dead holder kept the lease")
	}
}

func TestEventLogRotates(t *testing.T) {
	s := newStore(t)
	old := MaxEventsSize
	MaxEventsSize = 2000
	defer func() { MaxEventsSize = old }()
	for i := 0; i < 60; i++ {
		if err := s.Append(Event{Session: "sess", Kind: "transition", Reason: strings.Repeat("x", 50)}); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := os.Stat(filepath.Join(s.Root, EventsFile))
	rotated, err := os.Stat(filepath.Join(s.Root, EventsFile+".1"))
	if err != nil || cur.Size() > 2200 || rotated.Size() < 2000 {
		t.Fatalf("no rotation: current %d, rotated %v %v", cur.Size(), rotated, err)
	}
	evs, _ := s.Events("sess")
	if len(evs) < 20 || len(evs) > 60 {
		t.Fatalf("%d events read back", len(evs))
	}
}

// Regression: three panes starting at once. One supervisor's Update had
// added its pane's index entry but not yet written its state file when
// another's lookup rebuilt the index; the rebuild dropped the entry and
// marked the index fresh, so the pane's session was never found again.
// Here a rebuild is started in exactly that window; it must wait for the
// write, and the pane must be found afterwards.
func TestRebuildDuringAWriteLosesNoPane(t *testing.T) {
	s := newStore(t)
	if _, err := s.Activate("other", "x", Caller{Pane: "p0"}); err != nil {
		t.Fatal(err)
	}
	rebuilt := make(chan error, 1)
	testHookIndexed = func() {
		testHookIndexed = nil
		other := *s // another process's view of the same directory
		go func() { rebuilt <- other.Reindex() }()
		time.Sleep(100 * time.Millisecond) // let it run, if it can
	}
	defer func() { testHookIndexed = nil }()
	if _, err := s.Activate("new", "x", Caller{Pane: "p1"}); err != nil {
		t.Fatal(err)
	}
	if err := <-rebuilt; err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindByPane("p1"); err != nil || got.Name != "new" {
		t.Fatalf("FindByPane after a rebuild during the write: %+v, %v", got, err)
	}
}

// Regression: Load in a root that does not exist yet (nothing is created
// before claude starts) returned the open error instead of ErrNoSession,
// and the supervisor's search for a free automatic-session name, which
// stops at the first ErrNoSession, spun forever at start.
func TestLoadInASessionsRootNotYetCreatedIsNoSession(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("2026_11_22_pane0"); !errors.Is(err, ErrNoSession) {
		t.Errorf("Load in a missing root: %v, want ErrNoSession", err)
	}
	if _, err := os.Lstat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load created the root: %v", err)
	}
}

// plantRebuildMark puts an entry in the index that no session backs: every
// Reindex removes it, so its absence later means a rebuild happened.
func plantRebuildMark(t *testing.T, s *Store) string {
	t.Helper()
	path := filepath.Join(s.Index().Dir, kindPID, "999999999")
	if err := os.WriteFile(path, []byte(filepath.Join(s.Root, "nobody")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A dead supervisor's session recorded under the PID that a live caller
// holds now (PID reuse) used to make every lookup of that caller rebuild
// the whole index: the rebuild wrote the same entry back, and the next
// lookup rebuilt again. With 10,000 sessions a status-line tick took
// 0.4 s. The entry is right, so the lookup is a miss, with no rebuild.
func TestDeadOwnerWithTheCallersPIDDoesNotReindexEveryLookup(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	dead := me
	dead.Start++ // the same PID, an earlier process
	if _, err := s.Activate("dead-owner", "x", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	if err := s.Reindex(); err != nil {
		t.Fatal(err)
	}
	mark := plantRebuildMark(t, s)
	for i := 0; i < 3; i++ {
		if got, err := s.FindByOwner(me); !errors.Is(err, ErrNotFound) {
			t.Fatalf("lookup %d: the dead owner's session answered for a live PID: %+v %v", i, got, err)
		}
		if _, err := s.Mine(me, ""); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Mine %d: %v", i, err)
		}
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("a lookup whose index entry was right rebuilt the index:", err)
	}
}

// When two sessions claim the caller's PID, one recorded by a dead
// supervisor that once had the PID and one by the live caller, a rebuild
// of the index gives the PID to the live one, whichever was activated
// later: a dead owner's entry never hides a live PID's session.
func TestDeadOwnerEntryNeverPoisonsALivePID(t *testing.T) {
	s := newStore(t)
	me, _ := proc.Self()
	if _, err := s.Activate("live", "x", Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	dead := me
	dead.Start++
	later := t0.Add(time.Hour)
	s.Now = func() time.Time { return later }
	if _, err := s.Activate("dead-owner", "x", Caller{Owner: dead}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(s.Index().Dir); err != nil {
		t.Fatal(err)
	}
	if got, err := s.FindByOwner(me); err != nil || got.Name != "live" {
		t.Fatalf("after a rebuild, the live owner's session = %+v, %v", got, err)
	}
}

// A callback verifies its supervisor once, from its environment, and asks
// MineLive: the session that names that owner is taken on the caller's
// word that it is alive, without reading its /proc entry again (issue 22).
// The word covers that owner only: a session recorded under its PID with
// another start time is still not its, and Mine still checks.
func TestMineLiveTakesTheCallersWordForItsOwnerOnly(t *testing.T) {
	s := newStore(t)
	gone := startSleeper(t)
	if _, err := s.Activate("sess", "a", Caller{Owner: gone}); err != nil {
		t.Fatal(err)
	}
	p, _ := os.FindProcess(gone.PID)
	p.Kill()
	p.Wait()
	if got, err := s.Mine(gone, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Mine of a dead owner: %+v %v", got, err)
	}
	if got, err := s.MineLive(gone, ""); err != nil || got.Name != "sess" {
		t.Fatalf("MineLive: %+v %v; want the owner's session, on the caller's word", got, err)
	}
	other := gone
	other.Start++
	if got, err := s.MineLive(other, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("MineLive of another process under the same PID: %+v %v", got, err)
	}
}
