package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// world is a user's state: an index and sessions roots in a temporary
// directory.
type world struct {
	t   *testing.T
	dir string
	idx string
}

func newWorld(t *testing.T) *world {
	dir := t.TempDir()
	return &world{t: t, dir: dir, idx: filepath.Join(dir, "index")}
}

func (w *world) store(root string) *state.Store {
	w.t.Helper()
	s, err := state.OpenIn(filepath.Join(w.dir, root), w.idx)
	if err != nil {
		w.t.Fatal(err)
	}
	s.Actor = "test"
	return s
}

// session activates a session owned by owner in pane, then sets fields.
func (w *world) session(s *state.Store, name string, owner proc.Identity, pane string, set ...func(*state.State)) {
	w.t.Helper()
	if _, err := s.Activate(name, "implement", state.Caller{Owner: owner, Pane: pane}); err != nil {
		w.t.Fatal(err)
	}
	// What a supervisor records (cost, status, usage, limits) is
	// superclaude's own, which `update` refuses: written here as the
	// supervisor writes it.
	if len(set) > 0 {
		if _, err := s.Update(name, "", func(st *state.State) error {
			for _, f := range set {
				f(st)
			}
			return nil
		}); err != nil {
			w.t.Fatal(err)
		}
	}
}

func self(t *testing.T) proc.Identity {
	id, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// dead is an identity no live process has: this process's PID with
// another start time.
func dead(t *testing.T) proc.Identity {
	id := self(t)
	id.Start++
	return id
}

func byName(rows []Row) map[string]Row {
	m := map[string]Row{}
	for _, r := range rows {
		m[r.Session] = r
	}
	return m
}

func TestRowsReadEveryRootTheIndexKnows(t *testing.T) {
	w := newWorld(t)
	a, b := w.store("proj/sessions"), w.store("user/sessions")
	me := self(t)
	w.session(a, "live", me, "work:main:A", func(st *state.State) {
		st.CostUSD, st.AgentStatus, st.ContextUsage, st.CurrentPhase = 1.25, "waiting", 0.4, "tests"
		st.Limit, st.LimitedUntil = "usage", time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
	})
	w.session(b, "gone", dead(t), "", func(st *state.State) { st.AgentStatus = "busy" })
	a.Append(state.Event{Session: "live", Kind: "agent-start", Reason: "first", Detail: map[string]any{"pid": 5, "plan": "fresh"}})

	src := NewStoreSource(StoreConfig{IndexDir: w.idx})
	snap, err := src.Rows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Problems) != 0 || len(snap.Rows) != 2 {
		t.Fatalf("rows %+v, problems %v", snap.Rows, snap.Problems)
	}
	rows := byName(snap.Rows)
	live, gone := rows["live"], rows["gone"]
	if live.Status != Running || live.Pane != "work:main:A" || live.Supervisor != me || live.Skill != "implement" ||
		live.Phase != "tests" || live.Context == nil || *live.Context != 0.4 || live.Dir != filepath.Join(w.dir, "proj/sessions/live") {
		t.Errorf("live row %+v", live)
	}
	if live.Cost == nil || *live.Cost != 1.25 || live.NeedsInput == nil || !*live.NeedsInput ||
		live.Limit != "usage" || !live.LimitUntil.Equal(time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("live row's optional values: cost %v, input %v, limit %q %v", live.Cost, live.NeedsInput, live.Limit, live.LimitUntil)
	}
	if !strings.HasPrefix(live.LastEvent, "started the agent (pid 5) with a fresh context — first") {
		t.Errorf("live row's last event %q", live.LastEvent)
	}
	// A stopped agent waits for nobody, whatever it last reported.
	if gone.Status != Stopped || gone.Cost != nil || gone.NeedsInput != nil {
		t.Errorf("gone row %+v", gone)
	}
	// Its last event is its activation, a transition.
	if gone.LastEvent != "skill implement activated the session" {
		t.Errorf("gone row's last event %q", gone.LastEvent)
	}
}

// TestRowsTellRunningStaleAndStopped as +status does: a live owner that
// serves a control socket and does not answer when asked is stale; one
// that answers is running however old its heartbeat (a supervisor writes
// none while nothing changes: issue 22); a dead one is stopped, and not
// asked.
func TestRowsTellRunningStaleAndStopped(t *testing.T) {
	w := newWorld(t)
	s := w.store("sessions")
	w.session(s, "quiet", self(t), "", func(st *state.State) { st.AgentStatus = "waiting" })
	w.session(s, "gone", dead(t), "")
	if _, err := s.Update("quiet", "", func(st *state.State) error {
		hour := time.Now().Add(-time.Hour)
		st.LastHeartbeat, st.ActivatedAt, st.StartedAt = hour, hour, hour
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		answer control.Answer
		want   string
	}{
		{control.Silent, "gone=stopped quiet=stale input=<nil> asked=1"},
		{control.Answered, "gone=stopped quiet=running input=true asked=1"},
	} {
		asked := 0
		ask := func(ids []proc.Identity) []control.Answer {
			asked += len(ids)
			out := make([]control.Answer, len(ids))
			for i := range out {
				out[i] = tc.answer
			}
			return out
		}
		snap, err := NewStoreSource(StoreConfig{IndexDir: w.idx, Ask: ask}).Rows(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rows := byName(snap.Rows)
		input := "<nil>"
		if p := rows["quiet"].NeedsInput; p != nil {
			input = fmt.Sprint(*p)
		}
		if got := fmt.Sprintf("gone=%s quiet=%s input=%s asked=%d", rows["gone"].Status, rows["quiet"].Status, input, asked); got != tc.want {
			t.Errorf("answer %v: %s, want %s", tc.answer, got, tc.want)
		}
	}
}

func TestRowsReportACorruptFileAndGoOn(t *testing.T) {
	w := newWorld(t)
	s := w.store("sessions")
	w.session(s, "good", self(t), "")
	w.session(s, "bad", self(t), "")
	if err := os.WriteFile(filepath.Join(s.Root, "bad", state.StateFile), []byte(`{"pid": "x"`), 0o600); err != nil {
		t.Fatal(err)
	}
	snap, err := NewStoreSource(StoreConfig{IndexDir: w.idx}).Rows(context.Background())
	if err != nil || len(snap.Rows) != 1 || snap.Rows[0].Session != "good" {
		t.Fatalf("rows %+v, %v", snap.Rows, err)
	}
	if len(snap.Problems) != 1 || !strings.Contains(snap.Problems[0], filepath.Join("bad", state.StateFile)) {
		t.Fatalf("problems %q: want one naming bad/.state.json", snap.Problems)
	}
}

func TestRowsOnlyReadTheRootsAskedFor(t *testing.T) {
	w := newWorld(t)
	a, b := w.store("a"), w.store("b")
	w.session(a, "one", self(t), "")
	w.session(b, "two", self(t), "")
	snap, _ := NewStoreSource(StoreConfig{IndexDir: w.idx, Only: []string{b.Root}}).Rows(context.Background())
	if len(snap.Rows) != 1 || snap.Rows[0].Session != "two" {
		t.Fatalf("rows %+v, want only b's", snap.Rows)
	}
	// A root named but never made is no problem.
	snap, _ = NewStoreSource(StoreConfig{IndexDir: w.idx, Roots: []string{filepath.Join(w.dir, "none")}}).Rows(context.Background())
	if len(snap.Rows) != 2 || len(snap.Problems) != 0 {
		t.Fatalf("rows %+v, problems %v", snap.Rows, snap.Problems)
	}
}

func eventLine(session, kind string, at time.Time) string {
	b, _ := json.Marshal(state.Event{Time: at, Session: session, Kind: kind, Actor: "test"})
	return string(b) + "\n"
}

func TestWhyFormatsTheSessionsEvents(t *testing.T) {
	w := newWorld(t)
	s := w.store("sessions")
	w.session(s, "x", self(t), "")
	w.session(s, "y", self(t), "")
	s.Append(state.Event{Session: "x", Kind: "agent-exit", Reason: "overflow restart requested",
		Detail: map[string]any{"exit": 143, "killedByUs": true, "decision": "fresh"}})
	lines, err := NewStoreSource(StoreConfig{IndexDir: w.idx}).Why(context.Background(), Row{Session: "x", Dir: filepath.Join(s.Root, "x")})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "skill implement activated the session") ||
		!strings.Contains(lines[1], "the agent exited with 143, stopped by superclaude; next: a fresh start — overflow restart requested") {
		t.Fatalf("why lines:\n%s", strings.Join(lines, "\n"))
	}
}

// serveControl serves a control socket as this process's supervisor would
// and returns the requests it got.
func serveControl(t *testing.T) <-chan control.Request {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	sock, err := control.SocketPath(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := control.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan control.Request, 4)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go control.Serve(ctx, ln, func(_ context.Context, req control.Request, _ control.Peer) control.Response {
		got <- req
		switch req.Session {
		case "refuse":
			return control.Response{Error: "the session does not belong to this supervisor"}
		case "busy":
			return control.Response{OK: true, Data: json.RawMessage(`{"session":"busy","waiting":true}`)}
		}
		return control.Response{OK: true, Data: json.RawMessage(`{"session":"x","prompt":"/superclaude:session continue"}`)}
	})
	return got
}

func TestRestartAndStopReachTheOwnersSocket(t *testing.T) {
	got := serveControl(t)
	src := NewStoreSource(StoreConfig{})
	row := Row{Session: "x", Dir: "/s/x", Supervisor: self(t)}
	if waiting, err := src.Restart(context.Background(), row, false); err != nil || waiting {
		t.Fatal(waiting, err)
	}
	if req := <-got; req.Op != control.OpRestart || req.Session != "/s/x" || req.Reason == "" || !req.Resume {
		t.Fatalf("restart sent %+v, want a resume", req)
	}
	if _, err := src.Restart(context.Background(), row, true); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.Op != control.OpRestart || req.Resume {
		t.Fatalf("a fresh start sent %+v", req)
	}
	if err := src.Stop(context.Background(), row); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.Op != control.OpStop {
		t.Fatalf("stop sent %+v", req)
	}
	// An agent in the middle of a turn: the answer says the restart waits.
	row.Dir = "busy"
	if waiting, err := src.Restart(context.Background(), row, false); err != nil || !waiting {
		t.Fatalf("a restart that waits: %v %v", waiting, err)
	}
	<-got
	// The supervisor's refusal is the dashboard's error.
	row.Dir = "refuse"
	if _, err := src.Restart(context.Background(), row, false); err == nil || !strings.Contains(err.Error(), "does not belong") {
		t.Fatalf("a refused restart returned %v", err)
	}
	<-got
}

func TestRestartOfADeadOwnerSendsNothing(t *testing.T) {
	got := serveControl(t)
	src := NewStoreSource(StoreConfig{})
	for _, id := range []proc.Identity{dead(t), {}} {
		_, err := src.Restart(context.Background(), Row{Session: "x", Dir: "/s/x", Supervisor: id}, false)
		if err == nil {
			t.Fatalf("restart with owner %+v succeeded", id)
		}
	}
	select {
	case req := <-got:
		t.Fatalf("a request reached the socket: %+v", req)
	default:
	}
	// A recycled PID's socket is this process's; the identity check keeps
	// the request from it.
	if err := src.Stop(context.Background(), Row{Supervisor: dead(t)}); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("stop of a dead owner: %v", err)
	}
}
