package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/testutil/testbin"
)

// oneShotAgent writes a shell script standing in for claude: it records
// its PID and arguments in dir/agent.out and then runs body.
func oneShotAgent(t *testing.T, dir, body string) string {
	t.Helper()
	path := filepath.Join(dir, "agent.sh")
	script := "#!/bin/sh\necho \"$$ $*\" > " + filepath.Join(dir, "agent.out") + "\n" + body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func oneShotCommand(t *testing.T, dir, agent string, args ...string) *exec.Cmd {
	cmd := exec.Command(testbin.Superclaude(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SUPERCLAUDE_AGENT="+agent, "SUPERCLAUDE_PROFILE=",
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "SUPERCLAUDE_SESSIONS_DIR="+filepath.Join(dir, "sessions"),
		"XDG_RUNTIME_DIR="+dir)
	return cmd
}

func agentOut(t *testing.T, dir string) (pid int, args string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "agent.out"))
	if err != nil {
		t.Fatal(err)
	}
	p, rest, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, _ = strconv.Atoi(p)
	return pid, rest
}

// TestVersionHandsTheProcessToTheAgent: `superclaude --version` runs nothing
// that needs a supervisor, so superclaude becomes the agent (exec): the same
// PID, its arguments, its exit code, and nothing left in the sessions or
// runtime directories.
func TestVersionHandsTheProcessToTheAgent(t *testing.T) {
	dir := t.TempDir()
	agent := oneShotAgent(t, dir, "exit 3")
	cmd := oneShotCommand(t, dir, agent, "--version")
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("superclaude --version: %v, want the agent's exit 3", err)
	}
	pid, args := agentOut(t, dir)
	if pid != cmd.Process.Pid || args != "--version" {
		t.Fatalf("the agent ran as pid %d with %q; superclaude was pid %d: not handed over", pid, args, cmd.Process.Pid)
	}
	for _, d := range []string{"sessions", "state"} {
		if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
			t.Errorf("a --version run left %s behind", d)
		}
	}
}

// TestPrintRunSweepsWhatTheAgentLeft: a one-shot run that can run tools
// (`-p`) is not handed over, because a tool's `setsid … &` outlives claude;
// superclaude sweeps it once the agent has exited, and exits with the
// agent's code.
func TestPrintRunSweepsWhatTheAgentLeft(t *testing.T) {
	dir := t.TempDir()
	sleeper := filepath.Join(dir, "sleeper.pid")
	agent := oneShotAgent(t, dir, "setsid sh -c 'echo $$ > "+sleeper+"; exec sleep 300' & while [ ! -s "+sleeper+" ]; do sleep 0.01; done; exit 5")
	cmd := oneShotCommand(t, dir, agent, "-p", "hi")
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 5 {
		t.Fatalf("superclaude -p: %v, want the agent's exit 5", err)
	}
	b, _ := os.ReadFile(sleeper)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		t.Fatalf("the agent's leftover never started: %q", b)
	}
	deadline := time.Now().Add(5 * time.Second)
	for proc.PIDAlive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the agent's setsid leftover outlived the one-shot run")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOneShotEndsAsTheAgentDid: an agent killed by a signal makes
// superclaude die by the same signal, so that the shell sees exactly what
// it would have seen of claude.
func TestOneShotEndsAsTheAgentDid(t *testing.T) {
	dir := t.TempDir()
	agent := oneShotAgent(t, dir, "kill -TERM $$; sleep 5")
	err := oneShotCommand(t, dir, agent, "-p", "hi").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("superclaude -p: %v", err)
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("superclaude ended with %v, want killed by SIGTERM as the agent was", ws)
	}
}
