//go:build linux || darwin

package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/reexec"
	"golang.org/x/sys/unix"
)

// The test binary re-executes itself as the processes the tests kill (the
// role "proc"); the role's argument names the helper to run.
func TestMain(m *testing.M) { reexec.Main(m, reexec.Roles{"proc": runHelper}) }

func runHelper(name string) {
	switch name {
	case "sleep":
		fmt.Println("ready")
		time.Sleep(time.Hour)
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
		time.Sleep(time.Hour)
	case "tree-root":
		// root → middle (calls setsid) → leaf (ignores SIGTERM). The middle
		// writes "middlePID leafPID" to the file named by PROC_TEST_OUT.
		cmd := helperCmd("tree-middle")
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		time.Sleep(time.Hour)
	case "tree-middle":
		if _, err := unix.Setsid(); err != nil {
			panic(err)
		}
		leaf := helperCmd("ignore-term")
		out, _ := leaf.StdoutPipe()
		if err := leaf.Start(); err != nil {
			panic(err)
		}
		bufio.NewReader(out).ReadString('\n') // leaf has installed its handler
		line := fmt.Sprintf("%d %d\n", os.Getpid(), leaf.Process.Pid)
		if err := os.WriteFile(os.Getenv("PROC_TEST_OUT"), []byte(line), 0o600); err != nil {
			panic(err)
		}
		time.Sleep(time.Hour)
	case "subreaper":
		// Becomes a subreaper, starts a child that starts a grandchild in a
		// new session and exits, then checks the grandchild reparented here.
		if err := BecomeSubreaper(); err != nil {
			fmt.Println("subreaper:", err)
			os.Exit(3)
		}
		mid := helperCmd("orphan-maker")
		out, _ := mid.StdoutPipe()
		if err := mid.Start(); err != nil {
			panic(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		mid.Wait()
		gpid, _ := strconv.Atoi(strings.TrimSpace(line))
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if info, err := stat(gpid); err == nil && info.PPID == os.Getpid() {
				id := info.Identity
				res, err := KillTree(context.Background(), id, KillOptions{Grace: time.Second})
				if err != nil {
					fmt.Println("kill:", err)
					os.Exit(4)
				}
				if Alive(id) {
					fmt.Println("grandchild survived")
					os.Exit(5)
				}
				if info, err := stat(gpid); err == nil {
					fmt.Printf("grandchild not reaped: %+v %+v\n", info, res)
					os.Exit(6)
				}
				fmt.Println("ok")
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println("grandchild never reparented to the subreaper")
		os.Exit(7)
	case "orphan-maker":
		gc := helperCmd("sleep")
		gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := gc.Start(); err != nil {
			panic(err)
		}
		fmt.Println(gc.Process.Pid)
	default:
		panic("unknown helper " + name)
	}
}

func helperCmd(name string) *exec.Cmd { return reexec.Command("proc", name, nil) }

// startHelper starts a helper and waits for it to say it is ready.
func startHelper(t *testing.T, name string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := helperCmd(name)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper %s: %q, %v", name, line, err)
	}
	return cmd
}

func TestParseIdentityRoundTrip(t *testing.T) {
	for _, id := range []Identity{
		{PID: 1, Start: 0},
		{PID: 4242, Start: 178490, Boot: "3d1219c7-c4c5-404a-aa1f-6d2a48adfda4"},
	} {
		got, err := Parse(id.String())
		if err != nil || got != id {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", id.String(), got, err, id)
		}
	}
	for _, bad := range []string{"", "12", "x:1:b", "-3:1:", "12:y:"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestSelfVerifies(t *testing.T) {
	id, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if id.PID != os.Getpid() || id.Start == 0 {
		t.Fatalf("Self() = %+v", id)
	}
	if err := id.Verify(); err != nil {
		t.Fatalf("Verify(self) = %v", err)
	}
}

func TestSignalRefusesExitedProcess(t *testing.T) {
	cmd := startHelper(t, "sleep")
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := Signal(id, syscall.SIGTERM); !errors.Is(err, ErrGone) {
		t.Fatalf("Signal(exited) = %v, want ErrGone", err)
	}
	if Alive(id) {
		t.Fatal("Alive(exited) = true")
	}
}

func TestSignalRefusesWrongStartTime(t *testing.T) {
	cmd := startHelper(t, "sleep")
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	stale := id
	stale.Start-- // the identity of an earlier holder of this PID
	if err := Signal(stale, syscall.SIGTERM); !errors.Is(err, ErrReused) {
		t.Fatalf("Signal(wrong start) = %v, want ErrReused", err)
	}
	time.Sleep(50 * time.Millisecond)
	if !Alive(id) {
		t.Fatal("the process was signalled although its start time differed")
	}
	if err := Signal(id, syscall.SIGTERM); err != nil {
		t.Fatalf("Signal(right identity) = %v", err)
	}
}

// startTree starts root → middle (setsid) → leaf (ignores SIGTERM) and
// returns their identities once all three run; reaped is closed when the
// root, our own child, has been waited for.
func startTree(t *testing.T) (root *exec.Cmd, ids map[string]Identity, reaped chan struct{}) {
	t.Helper()
	outFile := filepath.Join(t.TempDir(), "pids")
	root = helperCmd("tree-root")
	root.Env = append(root.Env, "PROC_TEST_OUT="+outFile)
	if err := root.Start(); err != nil {
		t.Fatal(err)
	}
	reaped = make(chan struct{})
	go func() { root.Wait(); close(reaped) }()
	var middle, leaf int
	for deadline := time.Now().Add(10 * time.Second); ; {
		b, err := os.ReadFile(outFile)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			fmt.Sscan(string(b), &middle, &leaf)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tree never came up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ids = map[string]Identity{}
	for name, pid := range map[string]int{"root": root.Process.Pid, "middle": middle, "leaf": leaf} {
		id, err := Of(pid)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ids[name] = id
	}
	return root, ids, reaped
}

func TestKillTreeReachesSetsidGrandchildIgnoringTerm(t *testing.T) {
	_, ids, reaped := startTree(t)
	if info, _ := stat(ids["middle"].PID); info.SID != -1 && info.SID != ids["middle"].PID {
		t.Fatalf("middle did not start a session: sid %d", info.SID)
	}

	// The root is our own exec.Cmd child, so its status is Cmd.Wait's.
	res, err := KillTree(context.Background(), ids["root"], KillOptions{
		Grace: 300 * time.Millisecond,
		Reap:  func(pid int) {},
	})
	if err != nil {
		t.Fatalf("KillTree: %v (result %+v)", err, res)
	}
	for name, id := range ids {
		if Alive(id) {
			t.Errorf("%s (pid %d) survived", name, id.PID)
		}
	}
	killed := false
	for _, k := range res.Killed {
		killed = killed || k == ids["leaf"]
	}
	if !killed {
		t.Errorf("the leaf ignoring SIGTERM was not SIGKILLed at the grace: %+v", res)
	}
	<-reaped
}

func TestDescendantsWalksParentLinks(t *testing.T) {
	p := func(pid, ppid int) Info { return Info{Identity: Identity{PID: pid, Start: uint64(pid)}, PPID: ppid} }
	snap := []Info{
		p(1, 0), p(10, 1), // root's parent chain
		p(100, 10),               // root
		p(101, 100), p(102, 100), // children
		p(201, 101),            // grandchild (new session: same walk)
		p(301, 201),            // great-grandchild
		p(500, 1), p(501, 500), // unrelated tree
		p(600, 600), // malformed self-parent
	}
	var got []int
	for _, d := range Descendants(snap, 100) {
		got = append(got, d.PID)
	}
	want := []int{101, 102, 201, 301}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Descendants = %v, want %v", got, want)
	}
	if d := Descendants(snap, 999); len(d) != 0 {
		t.Fatalf("Descendants of unknown pid = %v", d)
	}
}

// TestSubtreesSparesOnlyVerifiedRoots: what a sweep spares is a root of
// the very identity recorded and what is below it — never a process that
// took a recorded root's PID, nor a zombie.
func TestSubtreesSparesOnlyVerifiedRoots(t *testing.T) {
	p := func(pid, ppid int) Info {
		return Info{Identity: Identity{PID: pid, Start: uint64(pid), Boot: "b"}, PPID: ppid}
	}
	zombie := p(700, 1)
	zombie.Zombie = true
	snap := []Info{
		p(1, 0), p(100, 1), p(101, 100), p(201, 101), // a server and its panes
		p(300, 1), p(301, 300), // a leftover whose PID a record names with another start
		p(400, 1), // a leftover a record of another boot names
		zombie,
	}
	roots := []Identity{
		{PID: 100, Start: 100, Boot: "b"},
		{PID: 300, Start: 299, Boot: "b"},
		{PID: 700, Start: 700, Boot: "b"},
		{PID: 400, Start: 400, Boot: "another boot"},
		{},
	}
	got := Subtrees(snap, roots)
	var pids []int
	for pid := range got {
		pids = append(pids, pid)
	}
	slices.Sort(pids)
	if want := []int{100, 101, 201}; fmt.Sprint(pids) != fmt.Sprint(want) {
		t.Fatalf("Subtrees = %v, want %v", pids, want)
	}
}

func TestFindByEnvFindsMarkedProcess(t *testing.T) {
	marker := fmt.Sprintf("test-%d-%d", os.Getpid(), time.Now().UnixNano())
	cmd := startHelper(t, "sleep", "PROC_TEST_MARKER="+marker)
	startHelper(t, "sleep", "PROC_TEST_MARKER=other")
	found, err := FindByEnv("PROC_TEST_MARKER", marker)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].PID != cmd.Process.Pid {
		t.Fatalf("FindByEnv = %+v, want only pid %d", found, cmd.Process.Pid)
	}
}

func TestSubreaperAdoptsAndReapsOrphans(t *testing.T) {
	if !SubreaperSupported {
		t.Skip("no child subreaper on this OS; FindByEnv covers escaped processes here")
	}
	out, err := helperCmd("subreaper").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("subreaper helper: %v\n%s", err, out)
	}
}

func TestKillTreeRootFirstStillEndsTheTree(t *testing.T) {
	root, ids, reaped := startTree(t)
	rootID, midID, leafID := ids["root"], ids["middle"], ids["leaf"]
	res, err := KillTree(context.Background(), rootID, KillOptions{
		Grace: 300 * time.Millisecond, RootFirst: true, Signal: syscall.SIGHUP, Reap: func(int) {},
	})
	if err != nil {
		t.Fatalf("KillTree: %v %+v", err, res)
	}
	for _, id := range []Identity{rootID, midID, leafID} {
		if Alive(id) {
			t.Errorf("pid %d survived", id.PID)
		}
	}
	<-reaped
	if ws := root.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGHUP {
		t.Errorf("root ended by %v, want the first signal SIGHUP", ws)
	}
}

// StartedAt puts a process's start on the wall clock, where the predecessor
// sweep compares it with the time a supervisor's socket was made.
func TestStartedAtIsWhenTheProcessStarted(t *testing.T) {
	before := time.Now()
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// Linux counts starts in 10 ms ticks.
	got := StartedAt(id)
	if got.Before(before.Add(-20*time.Millisecond)) || got.After(after.Add(20*time.Millisecond)) {
		t.Fatalf("StartedAt = %v, want between %v and %v", got.Format(time.StampMicro), before.Format(time.StampMicro), after.Format(time.StampMicro))
	}
}
