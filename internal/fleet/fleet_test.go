package fleet_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/testutil/fakeagent"
	"github.com/superclaude/superclaude/internal/testutil/testbin"
)

// The fleet test runs real tmux, the real superclaude binary in each pane,
// and this test binary, re-executed, as each pane's agent.
func TestMain(m *testing.M) { testbin.Main(m) }

type fleetWorld struct {
	t                             *testing.T
	bin, dir, file, sock, log, rt string
	env                           []string
}

// newWorld makes a fleet test's world: a private tmux server (socket in a
// short temporary directory, no configuration file), the superclaude
// binary, and an environment that points superclaude at both. Whatever
// of the fleet is still running when the test ends is killed.
func newWorld(t *testing.T) *fleetWorld {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): the fleet tests need a real tmux")
	}
	dir := t.TempDir()
	rt, err := os.MkdirTemp("", "sc-fleet-")
	if err != nil {
		t.Fatal(err)
	}
	w := &fleetWorld{t: t, bin: testbin.Superclaude(t), dir: dir, file: filepath.Join(dir, "fleet.toml"),
		sock: filepath.Join(rt, "tmux"), log: filepath.Join(dir, "agents.jsonl"), rt: rt}
	w.env = append(os.Environ(), "SUPERCLAUDE_TMUX_SOCKET="+w.sock, "XDG_RUNTIME_DIR="+rt, "TMUX_TMPDIR="+rt,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "TMUX=", "TMUX_PANE=", "SUPERCLAUDE_PANE_ID=")
	t.Cleanup(func() {
		for _, args := range [][]string{{"-S", w.sock}, {"-L", "scfleet"}, {"-L", "scother"}} {
			w.tmuxCmd(append(args, "kill-server")...).Run()
		}
		for _, mark := range [][2]string{{fakeagent.EnvLog, w.log}, {fleet.EnvFleet, w.file}} {
			left, _ := proc.FindByEnv(mark[0], mark[1])
			for _, p := range left {
				proc.Signal(p.Identity, syscall.SIGKILL)
			}
		}
		os.RemoveAll(rt)
	})
	w.startServer("-S", w.sock)
	return w
}

// startServer starts the tmux server selected by flags with no
// configuration file (the first command of a server reads it), holding a
// session of its own.
func (w *fleetWorld) startServer(flags ...string) {
	w.t.Helper()
	if out, err := w.tmuxCmd(append(flags, "-f", "/dev/null", "new-session", "-d", "-s", "keep", "cat")...).CombinedOutput(); err != nil {
		w.t.Fatalf("starting tmux: %v %s", err, out)
	}
}

func (w *fleetWorld) tmuxCmd(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", args...)
	cmd.Env = w.env
	cmd.Dir = w.dir
	return cmd
}

// tmux runs a command on the world's tmux server.
func (w *fleetWorld) tmux(args ...string) (string, error) {
	out, err := w.tmuxCmd(append([]string{"-S", w.sock}, args...)...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// fleetHeader is the top of a test fleet file: every pane runs this test
// binary as its agent, logging to the world's log.
func (w *fleetWorld) fleetHeader() string {
	return fmt.Sprintf(`name = "work"
command = %q
env = { FAKE_AGENT_ROLE = "agent", FAKE_AGENT_LOG = %q, FAKE_AGENT_SUPERCLAUDE = %q, SUPERCLAUDE_GRACE = "2s" }
`, os.Args[0], w.log, w.bin)
}

// writeFleet writes the world's fleet file: the header, then body.
func (w *fleetWorld) writeFleet(body string) {
	w.t.Helper()
	if err := os.WriteFile(w.file, []byte(w.fleetHeader()+body), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// pane is a [[window.pane]] whose agent binds conversation conv-LABEL.
func pane(label string, extra ...string) string {
	return fmt.Sprintf(`
  [[window.pane]]
  label = %q
  env = { FAKE_AGENT_BIND = "conv-%s" }
%s
`, label, label, strings.Join(extra, "\n"))
}

func window(name string) string { return fmt.Sprintf("\n[[window]]\nname = %q\n", name) }

func (w *fleetWorld) run(args ...string) (string, error) {
	cmd := exec.Command(w.bin, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *fleetWorld) sc(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("superclaude %v: %v\n%s", args, err, out)
	}
	return out
}

func (w *fleetWorld) records() []fakeagent.Record { return fakeagent.ReadLog(w.log) }

func (w *fleetWorld) starts() []fakeagent.Record { return fakeagent.ReadLog(w.log, "start") }

func (w *fleetWorld) waitFor(what string, ok func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			out, _ := w.run("+status", "--json", "--fleet", w.file)
			panes, _ := w.tmux("list-panes", "-a", "-F", "#{session_name}:#{window_name}:#{@pane_label} dead=#{pane_dead} pid=#{pane_pid}")
			var screens strings.Builder
			ids, _ := w.tmux("list-panes", "-a", "-F", "#{pane_id}")
			for _, id := range strings.Fields(ids) {
				screen, _ := w.tmux("capture-pane", "-p", "-J", "-t", id)
				fmt.Fprintf(&screens, "--- %s:\n%s\n", id, strings.TrimSpace(screen))
			}
			logs, _ := os.ReadFile(filepath.Join(w.dir, "state", "superclaude.log"))
			w.t.Fatalf("timed out waiting for %s; status: %s\npanes:\n%s\n%s\nagent log: %+v\nsuperclaude.log:\n%s", what, out, panes, screens.String(), w.records(), logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitBound waits until n panes' sessions are live and bound to their
// conversations, conv-LABEL.
func (w *fleetWorld) waitBound(n int) []statusRow {
	w.t.Helper()
	var rows []statusRow
	w.waitFor(fmt.Sprintf("%d bound, live sessions", n), func() bool {
		rows = w.status()
		live := 0
		for _, r := range rows {
			if r.OwnerAlive && r.SessionID == "conv-"+r.Pane[strings.LastIndex(r.Pane, ":")+1:] {
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
	out, err := w.run("+status", "--json", "--fleet", w.file)
	if err != nil {
		return nil // no sessions yet
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		w.t.Fatal(err)
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
	if out, err := w.tmux("has-session", "-t", "=work"); err == nil {
		w.t.Errorf("the tmux session outlived +down: %s", out)
	}
}

func TestFleetUpDownUpResumesEachPane(t *testing.T) {
	w := newWorld(t)
	dir := w.dir
	w.writeFleet(window("main") + pane("A") + pane("B") + window("side") + pane("C"))

	// Up: three panes, three supervisors, three sessions bound.
	w.sc("+up", w.file)
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
	if !strings.Contains(why, "resuming the pane's previous conversation") {
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
