package child

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// supervisorHelper is a stand-in supervisor (the role "child", argument "supervisor"):
// it starts a long-lived agent without a terminal from a goroutine locked
// to a thread that then exits — the thread Go's Pdeathsig pitfall ties the
// signal to — prints the agent's PID and waits to be killed.
func supervisorHelper() {
	// The main thread stays with the main goroutine, so the one below runs
	// on a thread that can exit (Go keeps the main thread alive).
	runtime.LockOSThread()
	started := make(chan *Agent)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		a, err := Start(spec("signal=0"), nil)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		started <- a
	}()
	a := <-started
	fmt.Println("agent", a.PID())
	time.Sleep(time.Hour)
}

// TestAgentDiesWithAKilledSupervisor is issue 9's "a supervisor killed with
// SIGKILL leaves debris", for the agent itself: it gets the parent-death
// signal (SIGHUP) when the supervisor dies, by any path, and not when the
// thread that happened to start it exits (golang/go#27505).
func TestAgentDiesWithAKilledSupervisor(t *testing.T) {
	if !deathSignalSupported {
		t.Skip("no parent-death signal on " + runtime.GOOS + ": a later supervisor's sweep ends the agent")
	}
	cmd := reexec.Command("child", "supervisor", nil)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	pidText, ok := strings.CutPrefix(strings.TrimSpace(line), "agent ")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil {
		t.Fatalf("helper said %q", line)
	}
	agent, err := proc.Of(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proc.Signal(agent, syscall.SIGKILL) })

	// The starting goroutine's thread has exited by now; the agent lives
	// on. (A thread exit reaps nothing the test could wait for: give it
	// the time a thread takes to go.)
	time.Sleep(200 * time.Millisecond)
	if !proc.Alive(agent) {
		t.Fatal("the agent died with the thread that started it, not with its supervisor")
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for proc.Alive(agent) {
		if time.Now().After(deadline) {
			t.Fatal("the agent outlived its SIGKILLed supervisor by 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
