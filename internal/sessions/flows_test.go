package sessions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/state"
)

// The flows of the +session commands, run in-process: the environment is
// what a command started by an agent (or, without a supervisor, typed in a
// shell) sees, with the user's state in a temporary directory.

// inPane sets the environment of a command run in pane, with this test
// process standing for the agent's supervisor (none when shell), and
// returns the sessions directory.
func inPane(t *testing.T, pane string, shell bool) string {
	root := t.TempDir()
	sup := strconv.Itoa(os.Getpid())
	if shell {
		sup = ""
	}
	for k, v := range map[string]string{
		envvar.StateDir: filepath.Join(root, "state"), envvar.SessionsDir: filepath.Join(root, "sessions"),
		envvar.PaneID: pane, envvar.Supervisor: "", envvar.SupervisorPID: sup, envvar.Socket: "", "TMUX": "",
	} {
		t.Setenv(k, v)
	}
	return filepath.Join(root, "sessions")
}

// ownedByGone makes session name in dir owned by a supervisor that is
// gone, as one is after its process ended.
func ownedByGone(t *testing.T, dir, name string) {
	t.Helper()
	s, err := OpenStore("test")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Clean(s.Root) != filepath.Clean(dir) {
		t.Fatalf("sessions directory %s, want %s", s.Root, dir)
	}
	if _, err := s.Activate(name, "", state.Caller{Owner: gone(t)}); err != nil {
		t.Fatal(err)
	}
}

func TestActivateThenChangeTheSession(t *testing.T) {
	dir := inPane(t, "f:w:A", false)
	a, err := Activate("S", "implement", true)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dir != filepath.Join(dir, "S") || a.State.Skill != "implement" || a.State.FleetPaneID != "f:w:A" || a.Shell != 0 || len(a.Notes) != 0 {
		t.Fatalf("activation %+v, state %+v", a, a.State)
	}
	// With no --session, each change finds this agent's session.
	steps := []func() (*state.Session, error){
		func() (*state.Session, error) { return Phase("", "Phase 2: Build") },
		func() (*state.Session, error) { return Target("", "PLAN.md") },
		func() (*state.Session, error) { return Update("", []string{"toolUseWithoutLogsWarnAfter=7"}) },
		func() (*state.Session, error) { return Deactivate("", "done it", "a,b") },
	}
	var sess *state.Session
	for i, step := range steps {
		if sess, err = step(); err != nil || sess.Dir != a.Dir {
			t.Fatalf("step %d: %v, %+v", i, err, sess)
		}
	}
	st := sess.State
	if st.CurrentPhase != "Phase 2: Build" || st.TargetFile != "PLAN.md" || st.ToolUseWithoutLogsWarnAfter != 7 ||
		st.Lifecycle != state.Completed || st.SessionDescription != "done it" {
		t.Fatalf("state after the changes: %+v", st)
	}
	if found, err := Lookup("session find", ""); err != nil || found.Dir != a.Dir {
		t.Fatalf("find: %v %+v", err, found)
	}
	if _, err := Update("", []string{"toolUseWithoutLogsWarnAfter=maybe"}); err == nil || !strings.Contains(err.Error(), `"toolUseWithoutLogsWarnAfter"`) {
		t.Fatalf("a wrong type: %v", err)
	}
}

// A session activated again keeps its skill unless one is given, even an
// empty one.
func TestActivateKeepsTheSessionsSkillUnlessGiven(t *testing.T) {
	inPane(t, "", false)
	if _, err := Activate("S", "review", true); err != nil {
		t.Fatal(err)
	}
	if a, err := Activate("S", "", false); err != nil || a.State.Skill != "review" {
		t.Fatalf("skill not given: %v %q", err, a.State.Skill)
	}
	if a, err := Activate("S", "", true); err != nil || a.State.Skill != "" {
		t.Fatalf("empty skill given: %v %q", err, a.State.Skill)
	}
}

// Typed in a plain shell: the shell holds the session, and the caller is
// told which, to say what that means.
func TestActivateWithoutASupervisorNamesTheShell(t *testing.T) {
	inPane(t, "", true)
	a, err := Activate("S", "x", true)
	if err != nil || a.Shell != os.Getppid() || a.State.PID != os.Getppid() {
		t.Fatalf("activation %+v, %v; want held by pid %d", a, err, os.Getppid())
	}
}

// A corrupt state file is kept aside and the session started fresh; the
// caller is told.
func TestActivateOverACorruptFileSaysSo(t *testing.T) {
	dir := inPane(t, "", false)
	if _, err := Activate("S", "x", true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "S", state.StateFile), []byte(`{"pid": "nope"`), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Activate("S", "x", true)
	if err != nil || len(a.Notes) != 1 || !strings.Contains(a.Notes[0].Error(), "kept aside") {
		t.Fatalf("notes %v, %v", a.Notes, err)
	}
	if _, err := Activate("../escape", "x", true); err == nil || !strings.Contains(err.Error(), "neither in the sessions directory") {
		t.Fatalf("a name out of the sessions directory: %v", err)
	}
}

// +session rm and prune never remove a session something runs, and say
// who holds it.
func TestRemoveAndPruneNeverTouchALiveSession(t *testing.T) {
	// Activated in a shell (this test's parent), which still runs: a
	// session's own process may remove it, any other never.
	dir := inPane(t, "", true)
	if _, err := Activate("live", "", true); err != nil {
		t.Fatal(err)
	}
	ownedByGone(t, dir, "dead")
	ownedByGone(t, dir, "idle")
	if _, err := Remove("", "live"); err == nil || !strings.Contains(err.Error(), "session live is held by pid "+strconv.Itoa(os.Getppid())) {
		t.Fatalf("rm of a live session: %v", err)
	}
	if sess, err := Remove("", "dead"); err != nil || sess.Name != "dead" {
		t.Fatalf("rm dead: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dead")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("rm left the directory: %v", err)
	}
	idle, running, err := Idle("", time.Now().Add(time.Hour))
	if err != nil || len(idle) != 1 || idle[0].Name != "idle" || running != 1 {
		t.Fatalf("idle %+v, %d running, %v; want idle alone, and live running", idle, running, err)
	}
	if err := Prune(idle[0], "idle for more than 1ms"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "live")); err != nil {
		t.Fatal("prune removed the live session")
	}
}

// A restart asked of a session no live supervisor owns writes nothing.
func TestRestartWithoutALiveOwnerChangesNothing(t *testing.T) {
	dir := inPane(t, "", false)
	ownedByGone(t, dir, "S")
	sess, err := Lookup("test", "S")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "S", state.StateFile))
	if _, err := Restart(sess, true); err == nil || !strings.Contains(err.Error(), "session S is stopped: no superclaude runs its agent, so nothing was restarted") {
		t.Fatalf("restart: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "S", state.StateFile)); string(after) != string(before) {
		t.Fatal("a refused restart wrote the state")
	}
}

// +why prints the log, and with follow what comes after, until told to
// stop; a session with no events is said to have none.
func TestWriteEventsFollowsUntilTheEnd(t *testing.T) {
	inPane(t, "", false)
	a, err := Activate("S", "implement", true)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan state.Event, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- WriteEvents(ctx, a.Session, true, func(ev state.Event) error { got <- ev; return nil })
	}()
	if ev := <-got; ev.Session != "S" {
		t.Fatalf("first event %+v", ev)
	}
	if _, err := Phase("", "Phase 9: Followed"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for followed := false; !followed; {
		select {
		case ev := <-got:
			followed = ev.Changes["currentPhase"][1] == "Phase 9: Followed"
		case <-deadline:
			t.Fatal("the new event was not followed")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("following ended with %v", err)
	}
	none := &state.Session{Name: "none", Store: a.Store}
	if err := WriteEvents(context.Background(), none, false, func(state.Event) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "no events for session none") {
		t.Fatalf("a session without events: %v", err)
	}
}

// Regression, issue 19: +status said a session's last activity was 7
// minutes ago while `+session prune --older-than 1m` found none idle for
// a minute: the two read different times (prune counted the agent's last
// exit, +status did not). Both read one: a session idle as +status says,
// for as long as it says, is the one prune finds.
func TestStatusAndPruneAgreeOnLastActivity(t *testing.T) {
	dir := inPane(t, "", false)
	ownedByGone(t, dir, "S")
	s, err := OpenStore("test")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := s.Update("S", "test", func(st *state.State) error {
		st.StartedAt, st.ActivatedAt = now.Add(-time.Hour), now.Add(-time.Hour)
		st.LastHeartbeat, st.AgentStatusAt = now.Add(-7*time.Minute), now.Add(-7*time.Minute)
		st.LastExit, st.LastExitAt = "user-exit", now.Add(-30*time.Second)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	views := LocalViews([]*state.Store{s}, nil)
	if len(views) != 1 {
		t.Fatalf("views %+v", views)
	}
	shown, err := time.Parse(time.RFC3339, views[0].LastActivity)
	if err != nil {
		t.Fatal(err)
	}
	if got := now.Sub(shown); got > time.Minute {
		t.Errorf("+status shows the last activity %v ago, before the agent's exit 30s ago", got.Round(time.Second))
	}
	for _, tc := range []struct {
		idleFor time.Duration
		want    int
	}{{time.Minute, 0}, {10 * time.Second, 1}} {
		idle, _, err := Idle("", now.Add(-tc.idleFor))
		if err != nil || len(idle) != tc.want {
			t.Errorf("prune --older-than %v: %d sessions (%v), want %d, as +status's %s", tc.idleFor, len(idle), err, tc.want, views[0].LastActivity)
		}
		for _, i := range idle {
			if !i.Since.Truncate(time.Second).Equal(shown) {
				t.Errorf("prune says idle since %v, +status %v", i.Since, shown)
			}
		}
	}
}
