package watchdog

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

func TestMain(m *testing.M) {
	reexec.Main(m, reexec.Roles{
		"ignore-term": func(string) {
			signal.Ignore(syscall.SIGTERM)
			os.Stdout.WriteString("ready\n")
			time.Sleep(time.Hour)
		},
		"sleep": func(string) {
			os.Stdout.WriteString("ready\n")
			time.Sleep(time.Hour)
		},
		"fake-supervisor": func(string) { fakeSupervisor() },
	})
}

func start(t *testing.T, mode string, env ...string) (*exec.Cmd, proc.Identity) {
	t.Helper()
	cmd := reexec.Command(mode, "", env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(out).ReadString('\n')
	id, err := proc.Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, id
}

func TestKillEscalatesAtTheGrace(t *testing.T) {
	cmd, id := start(t, "ignore-term")
	w := New(300*time.Millisecond, "", "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Serve(ctx)

	if w.Kill(Request{Reason: "no agent yet"}) {
		t.Fatal("Kill with no agent watched reported true")
	}
	w.Watch(id)
	began := time.Now()
	if !w.Kill(Request{Reason: "test"}) {
		t.Fatal("Kill refused")
	}
	err := cmd.Wait()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("agent ended by %v (%v), want SIGKILL", ws, err)
	}
	if d := time.Since(began); d < 300*time.Millisecond {
		t.Fatalf("SIGKILL came after %s, before the grace", d)
	}
}

func TestSweepEndsMarkedProcessesAndSparesKept(t *testing.T) {
	_, mine := start(t, "sleep", "SC_MARK=me")
	_, theirs := start(t, "sleep", "SC_MARK=someone-else")
	w := New(time.Second, "SC_MARK", "me", nil)
	// Both helpers are this process's children, as adopted orphans are a
	// subreaper's; keep spares the one that is not the agent's.
	res := w.Sweep(context.Background(), func(pid int) bool { return pid == theirs.PID })
	if res.Found < 1 {
		t.Fatalf("sweep found %+v", res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for proc.Alive(mine) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if proc.Alive(mine) {
		t.Fatal("marked process survived the sweep")
	}
	if !proc.Alive(theirs) {
		t.Fatal("the sweep killed another supervisor's process")
	}
}
