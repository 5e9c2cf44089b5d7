package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
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
