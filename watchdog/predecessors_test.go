package watchdog

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// fakeSupervisor plays a supervisor for TestSweepPredecessors: it makes its
// control socket and launch directory where a supervisor does, starts a
// "tool" that leaves the tree as Claude Code's tools do (a new session: sh
// and a sleep of its own, both carrying the supervisor's marker), prints
// its identity and the tool's, and waits to be killed.
func fakeSupervisor() {
	self, err := proc.Self()
	if err != nil {
		panic(err)
	}
	sock, err := control.SocketPath(self.PID)
	if err != nil {
		panic(err)
	}
	if _, err := control.Listen(sock); err != nil {
		panic(err)
	}
	rt, _ := control.RuntimeDir()
	launch := filepath.Join(rt, strconv.Itoa(self.PID)+".launch")
	os.MkdirAll(launch, 0o700)
	os.WriteFile(filepath.Join(launch, "settings.json"), []byte("{}"), 0o600)
	tool := exec.Command("sh", "-c", "sleep 300 & echo $!; wait")
	tool.Env = append(os.Environ(), envvar.Supervisor+"="+self.String())
	tool.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, _ := tool.StdoutPipe()
	if err := tool.Start(); err != nil {
		panic(err)
	}
	sleeper, _ := bufio.NewReader(out).ReadString('\n')
	fmt.Printf("ready %s %d %s %s\n", self, tool.Process.Pid, strings.TrimSpace(sleeper), sock)
	time.Sleep(time.Hour)
}

// Regression (issue 9, item 2): a supervisor killed with SIGKILL left a
// tool's setsid child running, and its control socket and launch
// directory behind; the next supervisor cleaned up none of it.
func TestAttackKilledSupervisorsLeftoversAreSweptAtTheNextStart(t *testing.T) {
	rt, err := os.MkdirTemp("", "sc-pred-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(envvar.Supervisor, "") // whatever runs the tests

	cmd := reexec.Command("fake-supervisor", "", nil)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	var supText, sock string
	var toolPID, sleeperPID int
	if _, err := fmt.Sscanf(line, "ready %s %d %d %s", &supText, &toolPID, &sleeperPID, &sock); err != nil {
		t.Fatalf("fake supervisor said %q: %v", line, err)
	}
	sup, _ := proc.Parse(supText)
	var leftovers []proc.Identity
	for _, pid := range []int{toolPID, sleeperPID} {
		id, err := proc.Of(pid)
		if err != nil {
			t.Fatal(err)
		}
		leftovers = append(leftovers, id)
		t.Cleanup(func() { proc.Signal(id, syscall.SIGKILL) })
	}
	launch := filepath.Join(filepath.Dir(sock), strconv.Itoa(sup.PID)+".launch")

	// SIGKILL: nothing of the supervisor's own cleanup runs.
	cmd.Process.Kill()
	cmd.Wait()
	for _, id := range leftovers {
		if !proc.Alive(id) {
			t.Fatalf("the tool process %d did not outlive its supervisor", id.PID)
		}
	}
	for _, p := range []string{sock, launch} {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("no debris to sweep: %v", err)
		}
	}

	// What must survive the sweep: a process marked by a live supervisor
	// (this test process), one with a marker that is not an identity, a
	// live supervisor's socket and launch directory, and this process.
	me, _ := proc.Self()
	_, liveMarked := start(t, "sleep", envvar.Supervisor+"="+me.String())
	_, garbage := start(t, "sleep", envvar.Supervisor+"=not-an-identity")
	mySock, _ := control.SocketPath(me.PID)
	ln, err := control.Listen(mySock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	myLaunch := filepath.Join(filepath.Dir(mySock), strconv.Itoa(me.PID)+".launch")
	os.Mkdir(myLaunch, 0o700)
	// And what must go besides: a socket and a launch directory of a
	// supervisor whose PID nobody holds (gone long ago, leaving no
	// process behind).
	free := 4000000
	for proc.PIDAlive(free) {
		free--
	}
	staleSock := filepath.Join(filepath.Dir(mySock), strconv.Itoa(free)+".sock")
	l2, err := net.ListenUnix("unix", &net.UnixAddr{Name: staleSock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l2.SetUnlinkOnClose(false)
	l2.Close()
	staleLaunch := filepath.Join(filepath.Dir(mySock), strconv.Itoa(free)+".launch")
	os.Mkdir(staleLaunch, 0o700)

	rep := SweepPredecessors(context.Background(), 500*time.Millisecond, nil)

	for _, id := range leftovers {
		if proc.Alive(id) {
			t.Errorf("leftover %d of the dead supervisor survived the sweep", id.PID)
		}
	}
	// Every supervisor of this user sweeps every dead supervisor's
	// leftovers, so a superclaude that another test package starts at the
	// same moment may get there first: then this sweep found nothing of
	// sup's, and the leftovers being gone (above) is what counts.
	if len(rep.Dead) > 1 || (len(rep.Dead) == 1 && rep.Dead[0] != sup) {
		t.Errorf("dead supervisors = %v, want %v", rep.Dead, sup)
	} else if len(rep.Dead) == 0 {
		t.Logf("another sweeper ended %v's leftovers first", sup)
	}
	for _, p := range []string{sock, launch, staleSock, staleLaunch} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", p, err)
		}
	}
	for _, id := range []proc.Identity{liveMarked, garbage, me} {
		if !proc.Alive(id) {
			t.Errorf("pid %d was killed", id.PID)
		}
	}
	for _, p := range []string{mySock, myLaunch} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("a live supervisor's %s was removed", p)
		}
	}
}

// socketAt makes a socket file at path that nothing serves, as a
// supervisor killed with SIGKILL leaves it, last changed at mtime.
func socketAt(t *testing.T, path string, mtime time.Time) {
	t.Helper()
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close()
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// Regression (issue 22): every supervisor's start read the environment of
// every process of its user, looking for what dead supervisors left, when
// none had died: 1,000 idle processes on the machine made a whole run
// 2.8× slower. The runtime directory says whether any did.
func TestAStartLooksForLeftoversOnlyWhenASupervisorDied(t *testing.T) {
	dir := t.TempDir()
	_, live := start(t, "sleep")
	free := 4000000
	for proc.PIDAlive(free) {
		free--
	}
	liveSock := filepath.Join(dir, strconv.Itoa(live.PID)+".sock")
	liveLaunch := filepath.Join(dir, strconv.Itoa(live.PID)+".launch")

	// A live supervisor's socket and launch directory, made after it
	// started, and entries that are no supervisor's.
	socketAt(t, liveSock, time.Now())
	os.Mkdir(liveLaunch, 0o700)
	os.WriteFile(filepath.Join(dir, "fleet.json"), nil, 0o600)
	os.Mkdir(filepath.Join(dir, "ssh"), 0o700)
	me, _ := proc.Self()
	socketAt(t, filepath.Join(dir, strconv.Itoa(me.PID)+".sock"), time.Now().Add(-time.Hour))
	if dead := recordedDead([]string{dir}); len(dead) != 0 {
		t.Fatalf("only live supervisors are recorded, yet %v look dead: a start would walk every process", dead)
	}

	cases := []struct {
		name string
		make func(t *testing.T) string
	}{
		{"a socket whose PID nobody holds (its supervisor was killed)", func(t *testing.T) string {
			p := filepath.Join(dir, strconv.Itoa(free)+".sock")
			socketAt(t, p, time.Now())
			return p
		}},
		{"a launch directory whose PID nobody holds", func(t *testing.T) string {
			p := filepath.Join(dir, strconv.Itoa(free)+".launch")
			os.Mkdir(p, 0o700)
			return p
		}},
		{"a socket made before the process now holding its PID started (the PID was reused)", func(t *testing.T) string {
			os.Remove(liveSock)
			socketAt(t, liveSock, proc.StartedAt(live).Add(-time.Minute))
			return liveSock
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.make(t)
			defer func() {
				os.RemoveAll(p)
				if p == liveSock {
					socketAt(t, liveSock, time.Now())
				}
			}()
			dead := recordedDead([]string{dir})
			base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), ".sock"), ".launch")
			pid, _ := strconv.Atoi(base)
			if len(dead) != 1 || !dead[pid] {
				t.Fatalf("dead = %v, want only %d", dead, pid)
			}
		})
	}
}

// Regression (issue 22): the sweep removed a dead supervisor's socket
// only when its PID was free or a process it left was found; one whose
// PID another process had taken, and that left nothing, stayed — and, as
// a supervisor that looks dead, would have made every later start walk
// every process (PredecessorDied).
func TestTheSocketOfASupervisorWhosePIDWasReusedGoes(t *testing.T) {
	rt, err := os.MkdirTemp("", "sc-pred-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(envvar.Supervisor, "")
	_, holder := start(t, "sleep")
	sock, err := control.SocketPath(holder.PID)
	if err != nil {
		t.Fatal(err)
	}
	launch := filepath.Join(filepath.Dir(sock), strconv.Itoa(holder.PID)+".launch")
	old := proc.StartedAt(holder).Add(-time.Minute)
	socketAt(t, sock, old)
	os.Mkdir(launch, 0o700)
	os.Chtimes(launch, old, old)

	SweepPredecessors(context.Background(), 100*time.Millisecond, nil)
	for _, p := range []string{sock, launch} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s of a supervisor whose PID %d holds now is still there (%v)", p, holder.PID, err)
		}
	}
	if !proc.Alive(holder) {
		t.Errorf("the process that took the PID was ended")
	}
	if dead := recordedDead([]string{filepath.Dir(sock)}); len(dead) != 0 {
		t.Errorf("after the sweep supervisors %v still look dead: every start would walk", dead)
	}
}
