package apptest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/fleetworld"
)

// The fleet test runs real tmux, the real superclaude binary in each pane,
// and this test binary, re-executed, as each pane's agent.

// fleetWorld is a fleet test's world (fleetworld.World), with the helpers
// of this package's tests.
type fleetWorld struct{ *fleetworld.World }

// newWorld makes a fleet test's world; the tests may start servers named
// scfleet and scother too.
func newWorld(t *testing.T) *fleetWorld {
	return &fleetWorld{fleetworld.New(t, fleetworld.Options{Servers: []string{"scfleet", "scother"}})}
}

// fleetHeader is the top of a test fleet file: every pane runs this test
// binary as its agent, logging to the world's log.
func (w *fleetWorld) fleetHeader() string {
	return fmt.Sprintf(`name = "work"
command = %q
env = { REEXEC_ROLE = "fakeagent", FAKE_AGENT_LOG = %q, FAKE_AGENT_SUPERCLAUDE = %q, SUPERCLAUDE_GRACE = "2s" }
`, os.Args[0], w.Log, w.Bin)
}

// writeFleet writes the world's fleet file: the header, then body.
func (w *fleetWorld) writeFleet(body string) {
	w.T.Helper()
	if err := os.WriteFile(w.File, []byte(w.fleetHeader()+body), 0o600); err != nil {
		w.T.Fatal(err)
	}
}

// pane is a [[window.pane]] whose agent binds conversation convID(LABEL).
func pane(label string, extra ...string) string {
	return fmt.Sprintf(`
  [[window.pane]]
  label = %q
  env = { FAKE_AGENT_BIND = %q }
%s
`, label, convID(label), strings.Join(extra, "\n"))
}

func window(name string) string { return fmt.Sprintf("\n[[window]]\nname = %q\n", name) }

func (w *fleetWorld) records() []fakeagent.Record { return fakeagent.ReadLog(w.Log) }

func (w *fleetWorld) starts() []fakeagent.Record { return fakeagent.ReadLog(w.Log, "start") }

func (w *fleetWorld) waitFor(what string, ok func() bool) {
	w.T.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			out, _ := w.Run("+status", "--json", "--fleet", w.File)
			panes, _ := w.Tmux("list-panes", "-a", "-F", "#{session_name}:#{window_name}:#{@pane_label} dead=#{pane_dead} pid=#{pane_pid}")
			var screens strings.Builder
			ids, _ := w.Tmux("list-panes", "-a", "-F", "#{pane_id}")
			for _, id := range strings.Fields(ids) {
				screen, _ := w.Tmux("capture-pane", "-p", "-J", "-t", id)
				fmt.Fprintf(&screens, "--- %s:\n%s\n", id, strings.TrimSpace(screen))
			}
			logs, _ := os.ReadFile(filepath.Join(w.Dir, "state", "superclaude.log"))
			w.T.Fatalf("timed out waiting for %s; status: %s\npanes:\n%s\n%s\nagent log: %+v\nsuperclaude.log:\n%s", what, out, panes, screens.String(), w.records(), logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitBound waits until n panes' sessions are live and bound to their
// conversations, convID(LABEL).
func (w *fleetWorld) waitBound(n int) []statusRow {
	w.T.Helper()
	var rows []statusRow
	w.waitFor(fmt.Sprintf("%d bound, live sessions", n), func() bool {
		rows = w.status()
		live := 0
		for _, r := range rows {
			if r.OwnerAlive && r.SessionID == convID(r.Pane[strings.LastIndex(r.Pane, ":")+1:]) {
				live++
			}
		}
		return live == n
	})
	return rows
}

type statusRow struct {
	Name       string `json:"name"`
	Pane       string `json:"pane"`
	OwnerAlive bool   `json:"ownerAlive"`
	SessionID  string `json:"sessionId"`
	Overflowed bool   `json:"overflowed"`
}

func (w *fleetWorld) status() []statusRow {
	var rows []statusRow
	out, err := w.Run("+status", "--json", "--fleet", w.File)
	if err != nil {
		return nil // no sessions yet
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		w.T.Fatal(err)
	}
	return rows
}

// identitiesOf returns the agents and supervisors of the given starts.
func identitiesOf(t *testing.T, starts []fakeagent.Record) []proc.Identity {
	var ids []proc.Identity
	for _, s := range starts {
		ids = append(ids, proc.Identity{PID: s.PID, Start: s.Start})
		ids = append(ids, supervisorOf(t, s))
	}
	return ids
}

func supervisorOf(t *testing.T, s fakeagent.Record) proc.Identity {
	sup, err := proc.Parse(s.Env["SUPERCLAUDE_SUPERVISOR"])
	if err != nil {
		t.Fatalf("start without a supervisor identity: %+v", s)
	}
	return sup
}

// paneOf returns the label of the pane an agent started in.
func paneOf(s fakeagent.Record) string {
	id := s.Env["SUPERCLAUDE_PANE_ID"]
	return id[strings.LastIndex(id, ":")+1:]
}

func (w *fleetWorld) nothingLeft(starts []fakeagent.Record) {
	w.T.Helper()
	for _, id := range identitiesOf(w.T, starts) {
		if proc.Alive(id) {
			w.T.Errorf("pid %d outlived +down", id.PID)
		}
	}
	left, _ := proc.FindByEnv(fakeagent.EnvLog, w.Log)
	for _, p := range left {
		w.T.Errorf("pid %d of the fleet outlived +down", p.PID)
	}
	if out, err := w.Tmux("has-session", "-t", "=work"); err == nil {
		w.T.Errorf("the tmux session outlived +down: %s", out)
	}
}

func TestFleetUpDownUpResumesEachPane(t *testing.T) {
	w := newWorld(t)
	dir := w.Dir
	w.writeFleet(window("main") + pane("A") + pane("B") + window("side") + pane("C"))

	// Up: three panes, three supervisors, three sessions bound.
	w.SC("+up", w.File)
	rows := w.waitBound(3)
	byPane := map[string]statusRow{}
	for _, r := range rows {
		byPane[r.Pane] = r
	}
	for _, id := range []string{"work:main:A", "work:main:B", "work:side:C"} {
		if _, ok := byPane[id]; !ok {
			t.Fatalf("no session for pane %s: %+v", id, rows)
		}
	}
	first := w.starts()

	// Down: nothing of ours or of the agents is left.
	if out := w.SC("+down", w.File); !strings.Contains(out, "3 supervisors stopped, 0 killed") {
		t.Fatalf("+down: %s", out)
	}
	w.nothingLeft(first)

	// Pane C's session overflowed before the fleet went down (S9).
	// (Written as the overflow guard writes it: `+session update` refuses
	// superclaude's own fields.)
	if store, err := state.OpenIn(filepath.Join(dir, "sessions"), filepath.Join(dir, "state", "index")); err != nil {
		t.Fatal(err)
	} else if _, err := store.Update(byPane["work:side:C"].Name, "test: overflowed", func(st *state.State) error { st.Overflowed = true; return nil }); err != nil {
		t.Fatal(err)
	}

	// Up again: A and B resume their own conversations, C starts fresh.
	w.SC("+up", w.File)
	w.waitFor("three more agent starts", func() bool { return len(w.starts()) == 6 })
	second := w.starts()[3:]
	for _, s := range second {
		paneID := s.Env["SUPERCLAUDE_PANE_ID"]
		label := paneID[strings.LastIndex(paneID, ":")+1:]
		args := withoutInjected(s.Args)
		switch label {
		case "A", "B":
			if want := fmt.Sprint([]string{"--resume", convID(label)}); fmt.Sprint(args) != want {
				t.Errorf("pane %s started with %q, want %s", paneID, args, want)
			}
		case "C":
			if len(args) != 0 {
				t.Errorf("the overflowed pane %s started with %q, want a fresh start", paneID, args)
			}
		default:
			t.Errorf("a start in an unknown pane %q", paneID)
		}
	}
	why := w.SC("+why", byPane["work:main:A"].Name, "--fleet", w.File)
	if !strings.Contains(why, "resuming the pane's previous conversation") {
		t.Errorf("+why does not explain the resume:\n%s", why)
	}
	t.Logf("+why:\n%s", why)
	for _, s := range second {
		t.Logf("second start in %s: %q", s.Env["SUPERCLAUDE_PANE_ID"], withoutInjected(s.Args))
	}
	w.SC("+down", "work")
	w.nothingLeft(second)
}

// withoutInjected drops the --settings and --plugin-dir superclaude adds
// for claude-profile agents.
func withoutInjected(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--settings" || args[i] == "--plugin-dir" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}
