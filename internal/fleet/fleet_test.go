package fleet_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/testutil/fakeagent"
	"github.com/superclaude/superclaude/internal/testutil/testbin"
)

// The fleet test runs real tmux, the real superclaude binary in each pane,
// and this test binary, re-executed, as each pane's agent.
func TestMain(m *testing.M) { testbin.Main(m) }

type fleetWorld struct {
	t                         *testing.T
	bin, dir, file, sock, log string
	env                       []string
}

func (w *fleetWorld) sc(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("superclaude %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (w *fleetWorld) records() []fakeagent.Record { return fakeagent.ReadLog(w.log) }

func (w *fleetWorld) starts() []fakeagent.Record { return fakeagent.ReadLog(w.log, "start") }

func (w *fleetWorld) waitFor(what string, ok func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			out, _ := exec.Command(w.bin, "+status", "--json", "--fleet", w.file).CombinedOutput()
			w.t.Fatalf("timed out waiting for %s; status: %s\nagent log: %+v", what, out, w.records())
		}
		time.Sleep(50 * time.Millisecond)
	}
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
	if err := json.Unmarshal([]byte(w.sc("+status", "--json", "--fleet", w.file)), &rows); err != nil {
		w.t.Fatal(err)
	}
	return rows
}

// identitiesOf returns the agents and supervisors of the given starts.
func identitiesOf(t *testing.T, starts []fakeagent.Record) []proc.Identity {
	var ids []proc.Identity
	for _, s := range starts {
		ids = append(ids, proc.Identity{PID: s.PID, Start: s.Start})
		sup, err := proc.Parse(s.Env["SUPERCLAUDE_SUPERVISOR"])
		if err != nil {
			t.Fatalf("start without a supervisor identity: %+v", s)
		}
		ids = append(ids, sup)
	}
	return ids
}

func (w *fleetWorld) nothingLeft(starts []fakeagent.Record) {
	w.t.Helper()
	for _, id := range identitiesOf(w.t, starts) {
		if proc.Alive(id) {
			w.t.Errorf("pid %d outlived +down", id.PID)
		}
	}
	left, _ := proc.FindByEnv(fakeagent.EnvLog, w.log)
	for _, p := range left {
		w.t.Errorf("pid %d of the fleet outlived +down", p.PID)
	}
	if out, err := exec.Command("tmux", "-S", w.sock, "has-session", "-t", "=work").CombinedOutput(); err == nil {
		w.t.Errorf("the tmux session outlived +down: %s", out)
	}
}

func TestFleetUpDownUpResumesEachPane(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): the fleet tests need a real tmux")
	}
	dir := t.TempDir()
	rt, _ := os.MkdirTemp("", "sc-fleet-")
	t.Cleanup(func() {
		exec.Command("tmux", "-S", filepath.Join(rt, "tmux"), "kill-server").Run()
		os.RemoveAll(rt)
	})
	w := &fleetWorld{t: t, bin: testbin.Superclaude(t), dir: dir, file: filepath.Join(dir, "fleet.toml"),
		sock: filepath.Join(rt, "tmux"), log: filepath.Join(dir, "agents.jsonl")}
	w.env = append(os.Environ(), "SUPERCLAUDE_TMUX_SOCKET="+w.sock, "XDG_RUNTIME_DIR="+rt,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "TMUX=", "SUPERCLAUDE_PANE_ID=")
	pane := func(label string) string {
		return fmt.Sprintf(`
  [[window.pane]]
  label = %q
  env = { FAKE_AGENT_BIND = "conv-%s" }
`, label, label)
	}
	spec := fmt.Sprintf(`name = "work"
command = %q
env = { FAKE_AGENT_ROLE = "agent", FAKE_AGENT_LOG = %q, FAKE_AGENT_SUPERCLAUDE = %q, SUPERCLAUDE_GRACE = "2s" }

[[window]]
name = "main"
%s%s
[[window]]
name = "side"
%s`, os.Args[0], w.log, w.bin, pane("A"), pane("B"), pane("C"))
	if err := os.WriteFile(w.file, []byte(spec), 0o600); err != nil {
		t.Fatal(err)
	}

	// Up: three panes, three supervisors, three sessions bound.
	w.sc("+up", w.file)
	w.waitFor("three bound, live sessions", func() bool {
		rows := w.status()
		live := 0
		for _, r := range rows {
			if r.OwnerAlive && r.SessionID == "conv-"+r.Pane[strings.LastIndex(r.Pane, ":")+1:] {
				live++
			}
		}
		return len(rows) == 3 && live == 3
	})
	rows := w.status()
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
	if out := w.sc("+down", w.file); !strings.Contains(out, "3 supervisors stopped, 0 killed") {
		t.Fatalf("+down: %s", out)
	}
	w.nothingLeft(first)

	// Pane C's session overflowed before the fleet went down (S9).
	w.sc("+session", "update", "overflowed=true", "--session", filepath.Join(dir, "sessions", byPane["work:side:C"].Name))

	// Up again: A and B resume their own conversations, C starts fresh.
	w.sc("+up", w.file)
	w.waitFor("three more agent starts", func() bool { return len(w.starts()) == 6 })
	second := w.starts()[3:]
	for _, s := range second {
		paneID := s.Env["SUPERCLAUDE_PANE_ID"]
		label := paneID[strings.LastIndex(paneID, ":")+1:]
		args := withoutInjected(s.Args)
		switch label {
		case "A", "B":
			if want := fmt.Sprint([]string{"--resume", "conv-" + label}); fmt.Sprint(args) != want {
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
	why := w.sc("+why", byPane["work:main:A"].Name, "--fleet", w.file)
	if !strings.Contains(why, "resumed") && !strings.Contains(why, "fleet resume") {
		t.Errorf("+why does not explain the resume:\n%s", why)
	}
	t.Logf("+why:\n%s", why)
	for _, s := range second {
		t.Logf("second start in %s: %q", s.Env["SUPERCLAUDE_PANE_ID"], withoutInjected(s.Args))
	}
	w.sc("+down", "work")
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
