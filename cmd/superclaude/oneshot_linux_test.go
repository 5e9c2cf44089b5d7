package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// On macOS superclaude dies only by the signals Go's runtime dies by
// (handover.DieBy), so this is Linux's alone.

// TestOneShotDiesByASignalItsParentBlocked: an agent dying by a signal that
// superclaude's parent had blocked (inherited by every thread of ours) is
// mirrored too. Before, DieBy's signal to itself stayed pending, and after
// a second's wait superclaude exited 128+n (a hostile tester's find).
func TestOneShotDiesByASignalItsParentBlocked(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		// The agent, a shell exec'ing this test binary, unblocks
		// SIGUSR1 and dies by it.
		agent := filepath.Join(dir, "agent")
		if err := os.WriteFile(agent, []byte("#!/bin/sh\nexec "+self+" -test.run='^TestHelperSignals$'\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		cmd := start(agent)
		// superclaude's parent, this test binary again, blocks SIGUSR1
		// and execs superclaude.
		cmd.Env = append(cmd.Env, "SC_HELPER_SIGNALS=die", "SC_HELPER_EXEC="+strings.Join(cmd.Args, "\x1f"))
		cmd.Path, cmd.Args = self, []string{self, "-test.run=^TestHelperSignals$"}
		began := time.Now()
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("superclaude: %v", err)
		}
		if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGUSR1 {
			t.Fatalf("superclaude ended with %v after %v, want killed by SIGUSR1 as the agent was", ws, time.Since(began))
		}
	})
}

// TestHelperSignals is a helper process of the test above, not a test.
func TestHelperSignals(t *testing.T) {
	if os.Getenv("SC_HELPER_SIGNALS") == "" {
		t.Skip("a helper process, run by TestOneShotDiesByASignalItsParentBlocked")
	}
	runtime.LockOSThread()
	set := unix.Sigset_t{}
	set.Val[0] = 1 << (uint(syscall.SIGUSR1) - 1)
	if argv := os.Getenv("SC_HELPER_EXEC"); argv != "" {
		// superclaude's parent: block, then exec with the mask kept.
		os.Unsetenv("SC_HELPER_EXEC")
		unix.PthreadSigmask(unix.SIG_BLOCK, &set, nil)
		args := strings.Split(argv, "\x1f")
		err := syscall.Exec(args[0], args, os.Environ())
		t.Fatalf("exec %s: %v", args[0], err)
	}
	// The agent: unblock and die by it (its default disposition set
	// with rt_sigaction: Go's runtime would drop it).
	var dfl [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(syscall.SIGUSR1), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	unix.Tgkill(os.Getpid(), unix.Gettid(), syscall.SIGUSR1)
	time.Sleep(5 * time.Second)
	os.Exit(3)
}

// TestPrintRunStopsWithItsAgent: an agent that stops itself (SIGTSTP to
// itself) stops superclaude too, when superclaude is the foreground job of
// a terminal, as the shell would have seen of the agent; continuing the
// job continues it. Before, superclaude went on waiting for an agent that
// would never run again, and the terminal hung (a hostile tester's find).
// The shell is this test binary (TestHelperJobShell) on a pty: the
// superclaude it starts leads the terminal's foreground group.
func TestPrintRunStopsWithItsAgent(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		cmd := start(oneShotAgent(t, dir, "kill -TSTP $$; exit 6"))
		cmd.Env = append(cmd.Env, "SC_HELPER_JOBS="+strings.Join(cmd.Args, "\x1f"))
		cmd.Path, cmd.Args = self, []string{self, "-test.run=^TestHelperJobShell$"}
		p := testbin.StartPTY(t, cmd)
		if code := p.Wait(t, 20*time.Second); code != 6 || !strings.Contains(p.Output(), "superclaude stopped") {
			t.Fatalf("the job shell exited %d: %s; want superclaude stopped, continued, and the agent's exit 6", code, p.Output())
		}
	})
}

// TestHelperJobShell is a helper process of the test above, not a test: a
// shell with job control, on a pty, running one job.
func TestHelperJobShell(t *testing.T) {
	argv := os.Getenv("SC_HELPER_JOBS")
	if argv == "" {
		t.Skip("a helper process, run by TestPrintRunStopsWithItsAgent")
	}
	os.Unsetenv("SC_HELPER_JOBS")
	args := strings.Split(argv, "\x1f")
	// The job's own group, in the terminal's foreground (tcsetpgrp), as
	// a shell starts a job.
	signal.Ignore(syscall.SIGTTOU)
	job := exec.Command(args[0], args[1:]...)
	job.Stdin, job.Stdout, job.Stderr = os.Stdin, os.Stdout, os.Stderr
	job.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: 0}
	if err := job.Start(); err != nil {
		fmt.Println("job:", err)
		os.Exit(90)
	}
	pid := job.Process.Pid
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED, nil); err == syscall.EINTR {
			continue
		} else if err != nil {
			fmt.Println("wait:", err)
			os.Exit(91)
		}
		if ws.Stopped() {
			fmt.Println("superclaude stopped by", ws.StopSignal())
			syscall.Kill(-pid, syscall.SIGCONT) // fg
			continue
		}
		os.Exit(ws.ExitStatus())
	}
}

// TestPrintRunIsNotStoppedByAStopFromOutside: a SIGSTOP, or a SIGTSTP with
// no terminal whose shell would continue us, sent to the agent alone and
// followed by SIGCONT (a debugger, cpulimit, a script's pkill): superclaude
// does not stop for it, and so is not left stopped when only the agent is
// continued (hostile testers' finds).
func TestPrintRunIsNotStoppedByAStopFromOutside(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		ready := filepath.Join(dir, "ready")
		cmd := start(oneShotAgent(t, dir, "touch "+ready+"; sleep 1.5; exit 6"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the agent never started")
			}
			time.Sleep(5 * time.Millisecond)
		}
		agent, _ := agentOut(t, dir)
		for _, stop := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGTSTP} {
			syscall.Kill(agent, stop)
			time.Sleep(200 * time.Millisecond)
			syscall.Kill(agent, syscall.SIGCONT)
		}
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 6 {
				t.Fatalf("superclaude %s: %v; want the agent's exit 6", printArgs, err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Signal(syscall.SIGCONT)
			<-done
			t.Fatal("superclaude stayed stopped after its agent was stopped and continued from outside")
		}
	})
}
