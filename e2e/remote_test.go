package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	w.t.Cleanup(func() {
		if w.t.Failed() {
			h.dump()
		}
	})
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

// dump logs what a failed test needs of the host: its superclaude log,
// its sessions' events, its panes' screens and the server's log.
func (h *remoteHost) dump() {
	b, _ := os.ReadFile(filepath.Join(h.stateDir(), "superclaude.log"))
	h.w.t.Logf("%s: superclaude.log:\n%s", h.u.Alias, b)
	if out, err := h.w.sc("+status", "--json"); err == nil {
		h.w.t.Logf("+status --json:\n%s", out)
	}
	if ids, err := h.tm.run("list-panes", "-a", "-F", "#{pane_id}"); err == nil {
		for _, id := range strings.Fields(ids) {
			h.w.t.Logf("%s: pane %s:\n%s", h.u.Alias, id, h.tm.capture(id))
		}
	}
	h.w.t.Logf("sshd log:\n%s", h.ssh.Log())
}

// stateDir is superclaude's state directory on the host.
func (h *remoteHost) stateDir() string {
	return filepath.Join(h.u.Home, ".local", "state", "superclaude")
}

// agentStarts reads, through superclaude (+why NAME --host, over ssh),
// the agent-start events of the host's session name, oldest first: each
// start's arguments. (The host's files are its user's: superclaude here
// never reads them, and neither does the test.)
func (h *remoteHost) agentStarts(name string) [][]string {
	h.w.t.Helper()
	out, err := h.w.sc("+why", name, "--host", h.u.Alias, "--json")
	if err != nil {
		h.w.t.Fatalf("+why %s --host %s: %v\n%s", name, h.u.Alias, err, out)
	}
	var starts [][]string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev state.Event
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Kind != "agent-start" {
			continue
		}
		var args []string
		raw, _ := json.Marshal(ev.Detail["args"])
		json.Unmarshal(raw, &args)
		starts = append(starts, args)
	}
	return starts
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

// claudes lists the host user's claude processes.
func (h *remoteHost) claudes() []proc.Identity {
	var out []proc.Identity
	for _, p := range h.u.Processes() {
		if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/comm"); strings.TrimSpace(string(comm)) == "claude" {
			out = append(out, p.Identity)
		}
	}
	return out
}

// hostRow is a row of +status --json with its host fields.
type hostRow struct {
	Name      string `json:"name"`
	Pane      string `json:"pane"`
	PID       int    `json:"pid"`
	Host      string `json:"host"`
	State     string `json:"state"`
	Lifecycle string `json:"lifecycle"`
	SessionID string `json:"sessionId"`
	LastGood  string `json:"lastGood"`
	HostError string `json:"hostError"`
}

// bound says the row's pane runs, active, bound to a conversation.
func (r hostRow) bound() bool {
	return r.State == "running" && r.Lifecycle == "active" && r.SessionID != ""
}

// ownerOf is the identity of a running row's supervisor.
func ownerOf(t *testing.T, r hostRow) proc.Identity {
	t.Helper()
	id, err := proc.Of(r.PID)
	if err != nil {
		t.Fatalf("the supervisor of %s (pid %d): %v", r.Pane, r.PID, err)
	}
	return id
}

// hostRows reads +status --json by pane; a host that did not answer is
// "@HOST".
func (w *world) hostRows() map[string]hostRow {
	w.t.Helper()
	out, err := w.sc("+status", "--json")
	if err != nil {
		w.t.Fatalf("+status --json: %v\n%s", err, out)
	}
	var rows []hostRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		w.t.Fatalf("+status --json: %v\n%s", err, out)
	}
	m := map[string]hostRow{}
	for _, r := range rows {
		if r.State == "unreachable" {
			m["@"+r.Host] = r
		} else {
			m[r.Pane] = r
		}
	}
	return m
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

// twoHostFleet is the fleet file "fl" of a window here (pane L) and a
// window on host box in dir (relative to its home) whose pane label runs
// claude with args.
func (w *world) twoHostFleet(dir, label string, args ...string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Sprintf(`name = "fl"
dir = "."
sessions = "sessions"
env = %s

[[window]]
name = "here"

  [[window.pane]]
  label = "L"

[[window]]
name = "there"
host = "box"
dir = %q

  [[window.pane]]
  label = %q
  args = [%s]
`, w.fleetEnv(), dir, label, strings.Join(quoted, ", "))
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
	os.WriteFile(file, []byte(w.twoHostFleet("proj", "R")), 0o600)

	// up brings the fleet up and waits until each side's pane has bound
	// its conversation, as +status shows them (the host's through ssh).
	up := func() (local, remote hostRow) {
		t.Helper()
		if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
			t.Fatalf("+up: %v\n%s", err, out)
		}
		w.until("each side's pane to bind its own conversation", func() bool {
			rows := w.hostRows()
			local, remote = rows["fl:here:L"], rows["fl:there:R"]
			return local.bound() && remote.bound()
		})
		return local, remote
	}
	local, remote := up()
	if local.SessionID == remote.SessionID {
		t.Fatalf("both sides share conversation %s", local.SessionID)
	}
	if dir := box.tm.must("display-message", "-p", "-t", "=fl:", "#{pane_current_path}"); dir != box.project {
		t.Errorf("the remote pane works in %q, want %q", dir, box.project)
	}
	w.sayHello(tm, "local")
	w.sayHello(box.tm, "remote")
	sups := []proc.Identity{ownerOf(t, local), ownerOf(t, remote)}

	// One view: +status --json lists both, each with its host (up read
	// them so).
	if local.Host != "" || remote.Host != "box" {
		t.Fatalf("+status --json: hosts %q and %q, want \"\" and box", local.Host, remote.Host)
	}

	// The ssh connection and the shared connection go (the server with
	// them): the remote agent runs on, and the next +status marks the
	// host unreachable, with its last good answer; then it is back.
	agents := box.claudes()
	if len(agents) == 0 {
		t.Fatal("no claude runs on the host")
	}
	if sshworld.KillControlMasters(w.tmp) == 0 {
		t.Fatal("no shared ssh connection to end")
	}
	s.Stop()
	rows := w.hostRows()
	if r := rows["@box"]; r.State != "unreachable" || r.LastGood == "" {
		t.Fatalf("+status --json with the host gone: %+v", rows)
	}
	if r := rows["fl:here:L"]; r.State != "running" {
		t.Fatalf("+status --json lost the local row with the host gone: %+v", rows)
	}
	for _, a := range append(agents, sups[1]) {
		if !proc.Alive(a) {
			t.Fatalf("remote process %d ended with the connection", a.PID)
		}
	}
	s.Start()
	if r := w.hostRows()["fl:there:R"]; r.Host != "box" || r.SessionID != remote.SessionID || r.State != "running" {
		t.Fatalf("+status --json after the host came back: %+v", r)
	}

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
	if left := sshworld.ControlMasters(w.tmp); len(left) > 0 {
		t.Errorf("+down left the shared ssh connection running: %v", left)
	}

	localStarts, remoteStarts := len(w.agentStarts()), len(box.agentStarts(remote.Name))
	local2, remote2 := up()
	if local2.SessionID != local.SessionID || remote2.SessionID != remote.SessionID {
		t.Fatalf("after +up again: here %s (want %s), there %s (want %s)",
			local2.SessionID, local.SessionID, remote2.SessionID, remote.SessionID)
	}
	for side, starts := range map[string][][]string{"here": w.agentStarts()[localStarts:], "there": box.agentStarts(remote.Name)[remoteStarts:]} {
		want := map[string]string{"here": local.SessionID, "there": remote.SessionID}[side]
		if len(starts) != 1 || !slices.Contains(starts[0], "--resume") || starts[0][slices.Index(starts[0], "--resume")+1] != want {
			t.Errorf("%s: the pane started again with %q, want --resume %s", side, starts, want)
		}
	}
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}

// pwned lists the files named PWNED* under dirs: what a word taken as
// shell text would have made.
func pwned(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(e.Name(), "PWNED") {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// Attack: words of a fleet file and of a command line that a shell would
// run — $(…), backquotes, ';', quotes, a backslash, a newline — reach the
// other host unchanged, as data, and run nothing on either side: a
// remote window's directory, the remote claude's arguments, a session
// name asked for with +why (found on no host, and on a named one); a
// label holding $(…) is refused before anything is made.
func TestAttackHostileWordsReachTheHostAsData(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := sshworld.Start(t)
	box := w.remoteHost(s, "box")
	tm := w.tmux()
	evilDir := "a $(touch PWNED1); b 'q' \"dq\" `touch PWNED2` \\ c\nnl"
	evilArg := "$(touch PWNED3); `touch PWNED4` 'x' \"y\" \\\nz"
	dir := box.u.MkdirAll(filepath.Join("proj", evilDir))
	cfg, _ := json.Marshal(claudeJSON(box.project, dir))
	box.u.WriteFile(".claude.json", cfg, 0o600)
	file := filepath.Join(w.project, "fleet.toml")
	fleet := func(label string) string {
		return w.twoHostFleet(filepath.Join("proj", evilDir), label, "--append-system-prompt", evilArg)
	}
	everywhere := []string{box.u.Home, w.root, w.tmp}

	// A label holding $(…), ';', quotes or a newline is refused, saying
	// why labels are plain, and nothing is made or run anywhere.
	for _, label := range []string{"R$(touch PWNED0)", "R;touch PWNED0", `R'"q"`, "R\ntouch PWNED0"} {
		os.WriteFile(file, []byte(fleet(label)), 0o600)
		if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err == nil || !strings.Contains(out, "label") ||
			!strings.Contains(out, "only letters, digits, '-' and '_'") {
			t.Fatalf("+up of label %q: %v\n%s", label, err, out)
		}
		if _, err := box.tm.run("has-session", "-t", "=fl"); err == nil {
			t.Fatal("a refused +up made the fleet's session on the host")
		}
		if _, err := tm.run("has-session", "-t", "=fl"); err == nil {
			t.Fatal("a refused +up made the fleet's session here")
		}
		if _, err := os.Stat(filepath.Join(box.u.Home, ".local", "state", "superclaude", "hosted")); err == nil {
			t.Fatal("a refused +up sent its part to the host")
		}
		if got := pwned(everywhere...); len(got) != 0 {
			t.Fatalf("shell text ran: %q", got)
		}
	}

	os.WriteFile(file, []byte(fleet("R")), 0o600)
	mark := w.api.Mark()
	if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+up: %v\n%s", err, out)
	}
	w.until("the remote pane to bind its conversation", func() bool { return w.hostRows()["fl:there:R"].bound() })
	// The remote claude runs in the directory, exactly.
	var cwds []string
	for _, c := range box.claudes() {
		cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", c.PID))
		cwds = append(cwds, cwd)
	}
	if !slices.Contains(cwds, dir) {
		t.Fatalf("the remote claude runs in %q, want %q", cwds, dir)
	}
	// And got its argument exactly: the API saw it in the system prompt
	// of the first turn.
	w.sayHello(box.tm, "remote")
	if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.System(), evilArg) }); !ok {
		t.Fatalf("no request carried the remote claude's argument %q unchanged", evilArg)
	}

	// A session name holding shell text: on no host, then on a named one;
	// each says so with the name as given.
	evilName := "$(touch PWNED5); x 'y' \"z\" `touch PWNED6`"
	for _, args := range [][]string{{"+why", evilName}, {"+why", evilName, "--host", "box"}, {"+session", "restart", "--session", evilName, "--host", "box"}} {
		out, err := w.sc(args...)
		if err == nil || !strings.Contains(out, evilName) {
			t.Errorf("superclaude %q: %v\n%s", args, err, out)
		}
	}

	if got := pwned(everywhere...); len(got) != 0 {
		t.Fatalf("shell text ran: %q", got)
	}
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
	if got := pwned(everywhere...); len(got) != 0 {
		t.Fatalf("shell text ran: %q", got)
	}
}
