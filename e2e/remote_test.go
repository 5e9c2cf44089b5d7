package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
	"github.com/superclaude/superclaude/testkit/sshworld"
)

// remoteHost is another machine of a fleet: a second local user reached
// only through a real sshd (testkit/sshworld), with superclaude and the
// real claude installed in its ~/.local/bin, claude's config trusting its
// project, and no other tie to the world's user.
type remoteHost struct {
	w       *world
	ssh     *sshworld.Server
	u       *sshworld.User
	project string
	// tm is the user's tmux server, which the test (root) reads and types
	// into as the person at that machine would.
	tm *tmuxServer
}

// remoteHost makes a host reached as ssh destination alias, and puts the
// world's ssh (with the test's client configuration) first on its PATH.
func (w *world) remoteHost(s *sshworld.Server, alias string) *remoteHost {
	w.t.Helper()
	u := s.AddUser(alias)
	h := &remoteHost{w: w, ssh: s, u: u, project: u.MkdirAll("proj")}
	u.Install(w.superclaude, "superclaude")
	u.Install(w.claudeAt, "claude")
	cfg, _ := json.Marshal(claudeJSON(h.project))
	u.WriteFile(".claude.json", cfg, 0o600)
	settings, _ := json.Marshal(map[string]any{"permissions": map[string]any{"defaultMode": "default", "allow": []string{"Bash"}}})
	u.WriteFile(".claude/settings.json", settings, 0o600)
	h.tm = &tmuxServer{w: w, sock: filepath.Join(u.Home, "tmp", "tmux-"+strconv.Itoa(u.UID), "default")}
	if !strings.HasPrefix(envOf(w.env, "PATH"), s.Bin+":") {
		w.setEnv("PATH=" + s.Bin + ":" + envOf(w.env, "PATH"))
	}
	return h
}

func envOf(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// stateDir is superclaude's state directory on the host.
func (h *remoteHost) stateDir() string {
	return filepath.Join(h.u.Home, ".local", "state", "superclaude")
}

// sessions lists the sessions of the fleets the host runs for another
// machine (read by the test, as root, from the host's files).
func (h *remoteHost) sessions() []state.Session {
	roots, _ := filepath.Glob(filepath.Join(h.stateDir(), "hosted", "*", "sessions"))
	var out []state.Session
	for _, root := range roots {
		s, err := state.Open(root)
		if err != nil {
			continue
		}
		list, _ := s.List()
		out = append(out, list...)
	}
	return out
}

// agentStarts reads the agent-start events of the host's fleet sessions,
// oldest first: each start's arguments.
func (h *remoteHost) agentStarts() [][]string {
	roots, _ := filepath.Glob(filepath.Join(h.stateDir(), "hosted", "*", "sessions"))
	type start struct {
		at   string
		args []string
	}
	var all []start
	for _, root := range roots {
		s, _ := state.Open(root)
		evs, _ := s.Events("")
		for _, ev := range evs {
			if ev.Kind == "agent-start" {
				var args []string
				raw, _ := json.Marshal(ev.Detail["args"])
				json.Unmarshal(raw, &args)
				all = append(all, start{ev.Time.Format("2006-01-02T15:04:05.000000000"), args})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	var out [][]string
	for _, s := range all {
		out = append(out, s.args)
	}
	return out
}

// leftovers lists the host user's processes other than sshd's own (the
// server side of a shared connection runs as the user).
func (h *remoteHost) leftovers() []string {
	var out []string
	for _, p := range h.u.Processes() {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/comm")
		if name := strings.TrimSpace(string(comm)); name != "sshd" {
			cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
			out = append(out, fmt.Sprintf("%d %s", p.PID, strings.ReplaceAll(string(cmdline), "\x00", " ")))
		}
	}
	return out
}

// fleetEnv is the fleet file's env: what both sides' claude need to reach
// the fake API and nothing else (the host's shell passes none of the
// world's environment).
func (w *world) fleetEnv() string {
	var kv []string
	for _, k := range []string{"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "DISABLE_AUTOUPDATER", "CLAUDE_CODE_DISABLE_1M_CONTEXT", "LANG", "SHELL"} {
		kv = append(kv, fmt.Sprintf("%s = %q", k, envOf(w.env, k)))
	}
	return "{ " + strings.Join(kv, ", ") + " }"
}

// sayHello types a prompt into each labelled pane of the tmux session
// "fl" on tm, and waits for the API to get it: a conversation claude has
// no message of cannot be resumed.
func (w *world) sayHello(tm *tmuxServer, where string) {
	w.t.Helper()
	for _, line := range strings.Split(tm.must("list-panes", "-s", "-t", "=fl", "-F", "#{pane_id} #{@pane_label}"), "\n") {
		id, label, _ := strings.Cut(line, " ")
		mark := w.api.Mark()
		tm.typeLine(id, "hello from "+label)
		if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
			return strings.Contains(r.LastUserText(), "hello from "+label)
		}); !ok {
			w.t.Fatalf("%s pane %s: the prompt never reached the API", where, label)
		}
	}
}

// A fleet of one window here and one on another host, reached over a real
// sshd, each pane the real claude: +up binds a session on each side; +down
// stops both and leaves nothing on either; +up again resumes each pane's
// own conversation.
func TestFleetAcrossHosts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := sshworld.Start(t)
	box := w.remoteHost(s, "box")
	tm := w.tmux()
	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "fl"
dir = "."
sessions = "sessions"
env = `+w.fleetEnv()+`

[[window]]
name = "here"

  [[window.pane]]
  label = "L"

[[window]]
name = "there"
host = "box"
dir = "proj"

  [[window.pane]]
  label = "R"
`), 0o600)

	up := func() (local, remote *state.State) {
		t.Helper()
		if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
			t.Fatalf("+up: %v\n%s", err, out)
		}
		bound := func(list []state.Session, pane string) *state.State {
			for _, s := range list {
				if s.State.FleetPaneID == pane && s.State.SessionID != "" && s.State.Lifecycle == state.Active && proc.Alive(state.Owner(s.State)) {
					return s.State
				}
			}
			return nil
		}
		w.until("each side's pane to bind its own conversation", func() bool {
			here, _ := w.store().List()
			local, remote = bound(here, "fl:here:L"), bound(box.sessions(), "fl:there:R")
			return local != nil && remote != nil
		})
		return local, remote
	}
	local, remote := up()
	if local.SessionID == remote.SessionID {
		t.Fatalf("both sides share conversation %s", local.SessionID)
	}
	if remote.ProjectDir != box.project {
		t.Errorf("the remote pane works in %q, want %q", remote.ProjectDir, box.project)
	}
	w.sayHello(tm, "local")
	w.sayHello(box.tm, "remote")
	sups := []proc.Identity{state.Owner(local), state.Owner(remote)}

	out, err := w.sc("+down", "--tmux-socket", tm.sock, file)
	if err != nil || !strings.Contains(out, "on box: fleet fl is down: 1 supervisor stopped, 0 killed") {
		t.Fatalf("+down: %v\n%s", err, out)
	}
	for _, sup := range sups {
		if proc.Alive(sup) {
			t.Errorf("supervisor %d outlived +down", sup.PID)
		}
		if left := leftovers(sup); len(left) != 0 {
			t.Errorf("supervisor %d left %+v", sup.PID, left)
		}
	}
	if left := box.leftovers(); len(left) != 0 {
		t.Errorf("+down left processes on the host: %q", left)
	}
	if _, err := tm.run("has-session", "-t", "=fl"); err == nil {
		t.Error("the local tmux session outlived +down")
	}

	localStarts, remoteStarts := len(w.agentStarts()), len(box.agentStarts())
	local2, remote2 := up()
	if local2.SessionID != local.SessionID || remote2.SessionID != remote.SessionID {
		t.Fatalf("after +up again: here %s (want %s), there %s (want %s)",
			local2.SessionID, local.SessionID, remote2.SessionID, remote.SessionID)
	}
	for side, starts := range map[string][][]string{"here": w.agentStarts()[localStarts:], "there": box.agentStarts()[remoteStarts:]} {
		want := map[string]string{"here": local.SessionID, "there": remote.SessionID}[side]
		if len(starts) != 1 || !slices.Contains(starts[0], "--resume") || starts[0][slices.Index(starts[0], "--resume")+1] != want {
			t.Errorf("%s: the pane started again with %q, want --resume %s", side, starts, want)
		}
	}
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}
