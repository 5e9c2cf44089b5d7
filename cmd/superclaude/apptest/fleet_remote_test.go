package apptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/fleetworld"
	"github.com/superclaude/superclaude/testkit/sshworld"
)

// remoteWorld is a fleet world with a host reached over a real sshd: a
// second local user, with superclaude and this test binary (the fake
// agent) installed in its ~/.local/bin.
type remoteWorld struct {
	*fleetWorld
	ssh  *sshworld.Server
	box  *sshworld.User
	rlog string // the remote agents' log
}

func newRemoteWorld(t *testing.T) *remoteWorld {
	s := sshworld.Start(t)
	box := s.AddUser("box")
	w := &remoteWorld{ssh: s, box: box}
	w.fleetWorld = &fleetWorld{fleetworld.New(t, fleetworld.Options{
		Servers: []string{"scfleet"},
		Env:     []string{"PATH=" + s.Bin + ":" + os.Getenv("PATH")},
	})}
	box.Install(w.Bin, "superclaude")
	box.Install(os.Args[0], "fleet.test")
	w.rlog = filepath.Join(box.Home, "agents.jsonl")
	return w
}

// remotePane is a pane on the box whose agent, the fake agent installed
// there, binds convID(LABEL) and logs to the box's log.
func (w *remoteWorld) remotePane(label string, extra ...string) string {
	return fmt.Sprintf(`
  [[window.pane]]
  label = %q
  command = %q
  env = { FAKE_AGENT_BIND = %q, FAKE_AGENT_LOG = %q, FAKE_AGENT_SUPERCLAUDE = %q }
%s
`, label, filepath.Join(w.box.Home, ".local/bin/fleet.test"), convID(label), w.rlog,
		filepath.Join(w.box.Home, ".local/bin/superclaude"), strings.Join(extra, "\n"))
}

func (w *remoteWorld) remoteStarts() []fakeagent.Record { return fakeagent.ReadLog(w.rlog, "start") }

// hostRow is a row of +status --json, with the host fields.
type hostRow struct {
	Name       string `json:"name"`
	Pane       string `json:"pane"`
	Host       string `json:"host"`
	State      string `json:"state"`
	OwnerAlive bool   `json:"ownerAlive"`
	SessionID  string `json:"sessionId"`
	LastGood   string `json:"lastGood"`
	HostError  string `json:"hostError"`
}

// hostRows reads +status --json (every session of the user, the hosts'
// included) by pane; a host that did not answer is "@HOST".
func (w *remoteWorld) hostRows() map[string]hostRow {
	w.T.Helper()
	out, err := w.Run("+status", "--json")
	if err != nil {
		w.T.Fatalf("+status --json: %v\n%s", err, out)
	}
	var rows []hostRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		w.T.Fatalf("+status --json: %v\n%s", err, out)
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

// killControlMasters ends the world's shared ssh connections, whose
// sockets are in the world's runtime directory.
func (w *remoteWorld) killControlMasters() {
	if sshworld.KillControlMasters(w.RT) == 0 {
		w.T.Fatal("no shared ssh connection to end")
	}
}

// upHereAndThere brings up a fleet of pane L here and pane R on box, and
// waits until both have bound their conversations.
func (w *remoteWorld) upHereAndThere() {
	w.T.Helper()
	w.writeFleet(window("here") + pane("L") +
		window("there") + `host = "box"` + "\n" + w.remotePane("R"))
	w.SC("+up", w.File)
	w.waitFor("both panes bound", func() bool {
		rows := w.hostRows()
		return rows["work:here:L"].SessionID == convID("L") && rows["work:there:R"].SessionID == convID("R")
	})
}

// noSharedConnection fails the test when a shared ssh connection of the
// world's is left after what: +down leaves nothing on either side, not
// even a connection persisting for minutes.
func (w *remoteWorld) noSharedConnection(after string) {
	w.T.Helper()
	if left := sshworld.ControlMasters(w.RT); len(left) > 0 {
		w.T.Errorf("%s left the shared ssh connection running: %v", after, left)
	}
}

// A fleet with a window on this machine and one on another host, over a
// real sshd: +up starts both parts, +down stops both and leaves nothing
// on either side, +up again resumes each pane's own conversation.
func TestFleetAcrossHostsUpDownUp(t *testing.T) {
	w := newRemoteWorld(t)
	w.writeFleet(window("here") + pane("L") +
		window("there") + `host = "box"` + "\n" + w.remotePane("R"))

	out := w.SC("+up", w.File)
	if !strings.Contains(out, "on box: 1 pane started") {
		t.Fatalf("+up does not say what it started on box:\n%s", out)
	}
	w.waitFor("the local and the remote agent to start", func() bool {
		return len(w.starts()) == 1 && len(w.remoteStarts()) == 1
	})
	local, remote := w.starts()[0], w.remoteStarts()[0]
	if got := remote.Env["SUPERCLAUDE_PANE_ID"]; got != "work:there:R" {
		t.Fatalf("the remote agent's pane is %q", got)
	}
	if sup := supervisorOf(t, remote); !slices.ContainsFunc(w.box.Processes(), func(p proc.Info) bool { return p.Identity == sup }) {
		t.Fatalf("the remote pane's supervisor %v is not the box user's", sup)
	}
	if remote.Dir != w.box.Home {
		t.Fatalf("the remote agent runs in %s, want the box user's home %s (a host's pane without a dir)", remote.Dir, w.box.Home)
	}

	// One view: +status lists both, each with its host.
	var rows map[string]hostRow
	w.waitFor("+status to list both panes bound, each with its host", func() bool {
		rows = w.hostRows()
		l, r := rows["work:here:L"], rows["work:there:R"]
		return l.Host == "" && l.SessionID == convID("L") && r.Host == "box" && r.OwnerAlive && r.SessionID == convID("R")
	})

	// +why, +history and +session restart find the remote pane's session
	// on its host.
	name := rows["work:there:R"].Name
	// A new session's events are written once its run has begun
	// something (a restart), or at the end of its start's window: +why
	// may find none for a few seconds.
	var why string
	w.waitFor("+why of the remote pane's session", func() bool {
		out, err := w.Run("+why", name)
		why = out
		return err == nil && strings.Contains(why, "started the agent")
	})
	if !strings.Contains(why, convID("R")[:8]) {
		t.Fatalf("+why %s (on box) says:\n%s", name, why)
	}
	if _, err := w.Run("+why", name, "--local"); err == nil {
		t.Fatalf("+why %s --local found the host's session here", name)
	}
	w.SC("+session", "restart", "--session", name, "--now", "--host", "box")
	w.waitFor("the remote agent restarted", func() bool { return len(w.remoteStarts()) == 2 })
	if n := len(w.starts()); n != 1 {
		t.Fatalf("the local agent started %d times, want once", n)
	}

	// The connection and the shared connection go: the remote agent runs
	// on, and the next +status says the host is unreachable, with the
	// time of its last good answer.
	w.killControlMasters()
	w.ssh.Stop()
	remote = w.remoteStarts()[1]
	for _, id := range identitiesOf(t, []fakeagent.Record{remote}) {
		if !proc.Alive(id) {
			t.Fatalf("remote pid %d ended with the connection", id.PID)
		}
	}
	rows = w.hostRows()
	down, ok := rows["@box"]
	if !ok || down.State != "unreachable" || down.LastGood == "" || !strings.Contains(down.HostError, "refused") {
		t.Fatalf("+status with box unreachable: %+v", rows)
	}
	if _, ok := rows["work:here:L"]; !ok {
		t.Fatalf("+status lost the local row while box was unreachable: %+v", rows)
	}
	w.ssh.Start()
	if r := w.hostRows()["work:there:R"]; r.Host != "box" || !r.OwnerAlive {
		t.Fatalf("+status after box came back: %+v", w.hostRows())
	}

	out = w.SC("+down", w.File)
	if !strings.Contains(out, "on box: fleet work is down: 1 supervisor stopped, 0 killed") ||
		!strings.Contains(out, "fleet work is down: 1 supervisor stopped, 0 killed") {
		t.Fatalf("+down:\n%s", out)
	}
	w.nothingLeft([]fakeagent.Record{local})
	for _, id := range identitiesOf(t, []fakeagent.Record{remote}) {
		if proc.Alive(id) {
			t.Errorf("remote pid %d outlived +down", id.PID)
		}
	}
	if left, _ := proc.FindByEnv(fakeagent.EnvLog, w.rlog); len(left) > 0 {
		t.Errorf("the remote fleet left %+v", left)
	}
	w.noSharedConnection("+down")
	nl, nr := len(w.starts()), len(w.remoteStarts())
	w.SC("+up", w.File)
	w.waitFor("both agents to start again", func() bool {
		return len(w.starts()) == nl+1 && len(w.remoteStarts()) == nr+1
	})
	for _, s := range []fakeagent.Record{w.starts()[nl], w.remoteStarts()[nr]} {
		label := paneOf(s)
		if want := fmt.Sprint([]string{"--resume", convID(label)}); fmt.Sprint(withoutInjected(s.Args)) != want {
			t.Errorf("pane %s started again with %q, want %s", label, withoutInjected(s.Args), want)
		}
	}
	w.SC("+down", w.File)
	w.noSharedConnection("the second +down")
	// The stop ended the host pane's resumed conversation: its history,
	// asked of the host by name (the fleet being down, no host is looked
	// at unasked).
	if hist := w.SC("+history", "work:there:R", "--json", "--host", "box"); !strings.Contains(hist, `"`+convID("R")+`"`) {
		t.Fatalf("+history work:there:R --host box:\n%s", hist)
	}
}

// The dashboard shows a host's panes beside this machine's, with a HOST
// column: a host's pane is restarted from the keyboard there, enter
// attaches to it there (ssh -t … tmux attach), and a host that stops
// answering is said to be unreachable, with its last good answer, while
// this machine's rows stay.
func TestDashboardAcrossHosts(t *testing.T) {
	w := newRemoteWorld(t)
	d := &dashWorld{w.World}
	w.upHereAndThere()
	d.tmux("new-session", "-d", "-s", "dash", "-x", "200", "-y", "30", "-c", w.Dir, "--",
		w.Bin, "+dashboard", "--refresh", "300ms")
	d.waitFor("the dashboard to list both panes, each with its host", func() bool {
		s := d.screen()
		return strings.HasPrefix(strings.TrimLeft(line(s, "work:here:L"), "> "), "local ") &&
			strings.HasPrefix(strings.TrimLeft(line(s, "work:there:R"), "> "), "box ") &&
			cell(s, "work:there:R", "STATE", false) == "running"
	})

	// Select the host's pane and restart it.
	for !strings.HasPrefix(line(d.screen(), "work:there:R"), "> ") {
		d.tmux("send-keys", "-t", "=dash:", "j")
		time.Sleep(100 * time.Millisecond)
	}
	d.tmux("send-keys", "-t", "=dash:", "r")
	d.waitFor("the question", func() bool { return strings.Contains(line(d.screen(), "Restart the agent"), "work:there:R") })
	d.tmux("send-keys", "-t", "=dash:", "y")
	w.waitFor("a second agent in the host's pane", func() bool { return len(w.remoteStarts()) == 2 })
	if n := len(w.starts()); n != 1 {
		t.Fatalf("the local pane's agent started %d times, want once", n)
	}

	// Enter attaches to the host's pane, through ssh: a client of the
	// host's tmux server shows up there.
	d.tmux("send-keys", "-t", "=dash:", "Enter")
	remoteClients := func() string {
		out, _ := w.box.SSH("", "tmux", "list-clients", "-F", "#{client_tty} #{session_name}")
		return strings.TrimSpace(out)
	}
	w.waitFor("a tmux client on the host, attached to the fleet", func() bool { return strings.HasSuffix(remoteClients(), " work") })
	w.box.SSH("", "tmux", "detach-client", "-s", "work")
	d.waitFor("the dashboard back after the detach", func() bool { return strings.Contains(d.screen(), "work:here:L") })

	// The host goes away: the dashboard says so within a refresh or two,
	// and this machine's row stays.
	w.killControlMasters()
	w.ssh.Stop()
	d.waitFor("the host said unreachable", func() bool {
		s := d.screen()
		return strings.Contains(s, "box: UNREACHABLE — last good answer") && strings.Contains(s, "work:here:L")
	})
	w.ssh.Start()
	d.waitFor("the host's row back", func() bool {
		s := d.screen()
		return !strings.Contains(s, "UNREACHABLE") && cell(s, "work:there:R", "STATE", false) != ""
	})
	w.SC("+down", w.File)
}

// A fleet all on another host: +up and +down speak only of that host, and
// +status --fleet lists its pane (this machine has no sessions of it).
func TestFleetAllOnAHost(t *testing.T) {
	w := newRemoteWorld(t)
	// A +up that fails its checks on box leaves nothing there.
	w.writeFleet(window("there") + `host = "box"` + "\n" + w.remotePane("R", `dir = "no-such-dir"`))
	if out, err := w.Run("+up", w.File); err == nil || !strings.Contains(out, "on box") || !strings.Contains(out, "no-such-dir does not exist") {
		t.Fatalf("+up of a pane whose directory is missing on box: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(w.box.Home, ".local", "state", "superclaude", "hosted")); err == nil {
		t.Fatal("a +up that failed its checks left its part's directory on box")
	}

	w.writeFleet(window("there") + `host = "box"` + "\n" + w.remotePane("R"))
	out := w.SC("+up", w.File)
	if strings.Contains(out, "fleet work is up") || !strings.Contains(out, "on box: 1 pane started") || !strings.Contains(out, `attach on box: ssh -t box "tmux attach -t '=work:'"`) {
		t.Fatalf("+up of a fleet all on box:\n%s", out)
	}
	w.waitFor("+status --fleet to list the pane on box, bound", func() bool {
		out, err := w.Run("+status", "--json", "--fleet", w.File)
		return err == nil && strings.Contains(out, `"sessionId":"`+convID("R")+`"`) && strings.Contains(out, `"host":"box"`)
	})
	// A pane the person opened in the fleet's session on box is theirs:
	// +down there stops the fleet's supervisor and leaves it, and the
	// session with it, as it does here.
	if out, err := w.box.SSH("", "tmux", "split-window", "-d", "-t", "=work:", "sleep", "300"); err != nil {
		t.Fatalf("opening a pane on box: %v %s", err, out)
	}
	out = w.SC("+down", w.File)
	if out != "on box: fleet work is down: 1 supervisor stopped, 0 killed\non box: kept the tmux session: 1 pane was in it not started by superclaude\n" {
		t.Fatalf("+down of a fleet all on box:\n%s", out)
	}
	if panes, err := w.box.SSH("", "tmux", "list-panes", "-t", "=work:", "-F", "#{pane_current_command}"); err != nil || strings.TrimSpace(panes) != "sleep" {
		t.Fatalf("the person's pane on box after +down: %q %v", panes, err)
	}
	w.box.SSH("", "tmux", "kill-session", "-t", "=work")
	// Down already, on box too: no error (issue 19), said once, by box.
	if out, err := w.Run("+down", w.File); err != nil || out != "on box: fleet work was not up\n" {
		t.Fatalf("+down of a fleet that is up nowhere: %v\n%s", err, out)
	}
}

// A host without superclaude: +up says so, and how to install it, before
// it creates anything, here or there; it copies nothing there.
func TestUpOnAHostWithoutSuperclaude(t *testing.T) {
	w := newRemoteWorld(t)
	bare := w.ssh.AddUser("bare")
	w.writeFleet(window("here") + pane("L") + window("there") + `host = "bare"` + "\n" + pane("R"))
	out, err := w.Run("+up", w.File)
	if err == nil || !strings.Contains(out, "on bare") || !strings.Contains(out, "superclaude is not installed there") ||
		!strings.Contains(out, "make install") || !strings.Contains(out, "copies no binaries") {
		t.Fatalf("+up with a host that has no superclaude: %v\n%s", err, out)
	}
	if _, err := w.Tmux("has-session", "-t", "=work"); err == nil {
		t.Fatal("+up created the local part of a fleet that could not come up on bare")
	}
	if entries, _ := os.ReadDir(filepath.Join(bare.Home, ".local", "bin")); len(entries) != 0 {
		t.Fatalf("+up put files in bare's ~/.local/bin: %v", entries)
	}
}

// Attack: a host whose key this machine has never checked is never
// accepted for the person (ssh, asked by superclaude, cannot ask): +up
// fails with ssh's own words and what to do, and known_hosts stays as it
// was.
func TestAttackUnknownHostKeyIsNeverAccepted(t *testing.T) {
	w := newRemoteWorld(t)
	kh := w.ssh.AddStranger("stranger", w.box)
	w.writeFleet(window("there") + `host = "stranger"` + "\n" + w.remotePane("R"))
	out, err := w.Run("+up", w.File)
	if err == nil || !strings.Contains(out, "Host key verification failed") || !strings.Contains(out, "connect once with `ssh stranger`") {
		t.Fatalf("+up to a host of unknown key: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(kh); len(b) != 0 {
		t.Fatalf("the host's key was written to known_hosts:\n%s", b)
	}
	if len(w.remoteStarts()) != 0 {
		t.Fatal("an agent started on a host whose key was never checked")
	}
}

// streamedLines runs superclaude with args in the world and sends each
// line of its standard output as it is written; done is closed once the
// command has exited.
func (w *remoteWorld) streamedLines(args ...string) (lines <-chan string, done <-chan struct{}, cmd *exec.Cmd) {
	w.T.Helper()
	cmd = exec.Command(w.Bin, args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, err := cmd.StdoutPipe()
	if err != nil {
		w.T.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.T.Fatal(err)
	}
	ch, exited := make(chan string, 64), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
		cmd.Wait()
		close(exited)
	}()
	w.T.Cleanup(func() { cmd.Process.Kill(); <-exited })
	return ch, exited, cmd
}

// sshRunsTo reports whether a child of pid is an ssh to host (its last
// argument but one, as remote.SSH.Command puts it: "--", host, command).
func sshRunsTo(pid int, host string) bool {
	snap, _ := proc.List()
	for _, p := range snap {
		if p.PPID != pid {
			continue
		}
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.PID))
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if i := slices.Index(args, "--"); i >= 0 && i+1 < len(args) && args[i+1] == host {
			return true
		}
	}
	return false
}

// recordSilentHost adds a host that takes connections and never answers
// to the user's record of hosts, as if a fleet of theirs ran there.
func (w *remoteWorld) recordSilentHost(alias string) {
	w.T.Helper()
	w.ssh.AddSilentHost(alias)
	rec := remote.Hosts{File: filepath.Join(w.Dir, "state", remote.HostsFile)}
	if err := rec.AddFleet(alias, filepath.Join(w.Dir, "elsewhere.toml")); err != nil {
		w.T.Fatal(err)
	}
}

// +status waited for every host before it wrote a line: a host that
// swallows packets held this machine's view for the whole --host-timeout
// (the issue: it "never blocks or slows the local view"). The table shows
// this machine's rows at once, and each host's as it answers, while the
// silent host is still waited for; that host is then one line saying it
// is unreachable. --json stays one document, and waits for it.
func TestStatusShowsThisMachineWhileAHostIsSilent(t *testing.T) {
	w := newRemoteWorld(t)
	w.upHereAndThere()
	w.recordSilentHost("silent")

	// A minute for the silent host (ssh itself gives up on it after its
	// ConnectTimeout, 5 s): this machine's row, and box's, come while ssh
	// still waits for it.
	lines, done, cmd := w.streamedLines("+status", "--host-timeout", "60s")
	var seen []string
	for _, want := range []string{"work:here:L", "work:there:R"} {
		deadline := time.After(30 * time.Second)
		for !slices.ContainsFunc(seen, func(l string) bool { return strings.Contains(l, want) }) {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("+status ended before it showed %s:\n%s", want, strings.Join(seen, "\n"))
				}
				seen = append(seen, l)
			case <-deadline:
				t.Fatalf("+status showed no %s row while it waited for the silent host; so far:\n%s", want, strings.Join(seen, "\n"))
			}
		}
	}
	if !sshRunsTo(cmd.Process.Pid, "silent") {
		t.Fatalf("+status wrote its rows only once it had given up on the silent host:\n%s", strings.Join(seen, "\n"))
	}
	select {
	case <-done:
		t.Fatalf("+status ended without waiting for the silent host:\n%s", strings.Join(seen, "\n"))
	default:
	}
	if slices.ContainsFunc(seen, func(l string) bool { return strings.Contains(l, "silent") }) {
		t.Fatalf("the silent host was written before it was given up on:\n%s", strings.Join(seen, "\n"))
	}
	if l := seen[slices.IndexFunc(seen, func(l string) bool { return strings.Contains(l, "work:here:L") })]; !strings.HasPrefix(l, "local ") {
		t.Errorf("this machine's row has no HOST cell: %q", l)
	}
	cmd.Process.Kill()

	// Given up on, the silent host is one line at the end.
	out := w.SC("+status", "--host-timeout", "3s")
	last := strings.Split(strings.TrimSpace(out), "\n")
	if l := last[len(last)-1]; !strings.HasPrefix(l, "silent ") || !strings.Contains(l, "UNREACHABLE") {
		t.Fatalf("+status with a silent host ends with %q:\n%s", l, out)
	}
	if !strings.Contains(out, "work:here:L") || !strings.Contains(out, "work:there:R") {
		t.Fatalf("+status:\n%s", out)
	}
	// --json is one document with every host in it.
	out = w.SC("+status", "--json", "--host-timeout", "3s")
	var rows []hostRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("+status --json is not one document: %v\n%s", err, out)
	}
	if !slices.ContainsFunc(rows, func(r hostRow) bool { return r.Host == "silent" && r.State == "unreachable" }) ||
		!slices.ContainsFunc(rows, func(r hostRow) bool { return r.Pane == "work:here:L" }) {
		t.Fatalf("+status --json: %+v", rows)
	}
	w.SC("+down", w.File)
}
