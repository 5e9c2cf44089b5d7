package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/testbin"
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
// printPaths are the two ways a print-mode run goes: taken by
// internal/handover before main, and main's own one-shot path, which takes
// it when an option of superclaude's is set in the environment. Both must
// behave alike. Each is the environment to add.
var printPaths = map[string][]string{"handover": nil, "main": {envvar.Grace + "=2s"}}

// printArgs is the print-mode run of the tests on printPaths.
var printArgs = []string{"-p", "hi"}

// pidIn reads the PID a test's agent wrote to file; what names the process
// for the failure.
func pidIn(t *testing.T, file, what string) int {
	t.Helper()
	b, _ := os.ReadFile(file)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		t.Fatalf("%s never started: %q", what, b)
	}
	return pid
}

// waitGone waits up to 5 s for pid to be gone; failing that it kills it
// and fails with why.
func waitGone(t *testing.T, pid int, why string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for proc.PIDAlive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal(why)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// onPrintPaths runs test once on each of printPaths, in a directory of its
// own, with start making the command of the print-mode run of an agent.
func onPrintPaths(t *testing.T, test func(t *testing.T, dir string, start func(agent string) *exec.Cmd)) {
	for name, extra := range printPaths {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			test(t, dir, func(agent string) *exec.Cmd {
				cmd := oneShotCommand(t, dir, agent, printArgs...)
				cmd.Env = append(cmd.Env, extra...)
				return cmd
			})
		})
	}
}

func TestPrintRunSweepsWhatTheAgentLeft(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		sleeper := filepath.Join(dir, "sleeper.pid")
		agent := oneShotAgent(t, dir, "setsid sh -c 'echo $$ > "+sleeper+"; exec sleep 300' & while [ ! -s "+sleeper+" ]; do sleep 0.01; done; exit 5")
		err := start(agent).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 5 {
			t.Fatalf("superclaude %s: %v, want the agent's exit 5", printArgs, err)
		}
		waitGone(t, pidIn(t, sleeper, "the agent's leftover"), "the agent's setsid leftover outlived the one-shot run")
		if _, got := agentOut(t, dir); got != strings.Join(printArgs, " ") {
			t.Errorf("the agent ran with %q, want %q", got, printArgs)
		}
	})
}

// TestOneShotEndsAsTheAgentDid: an agent killed by a signal makes
// superclaude die by the same signal, so that the shell sees exactly what
// it would have seen of claude. On Linux that holds for any signal (SIGUSR1:
// Go's runtime would ignore it); on macOS for those Go's runtime dies by.
func TestOneShotEndsAsTheAgentDid(t *testing.T) {
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}
	if runtime.GOOS == "linux" {
		sigs = append(sigs, syscall.SIGUSR1)
	}
	for _, sig := range sigs {
		t.Run(sig.String(), func(t *testing.T) {
			onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
				agent := oneShotAgent(t, dir, fmt.Sprintf("kill -%d $$; sleep 5", sig))
				err := start(agent).Run()
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatalf("superclaude %s: %v", printArgs, err)
				}
				if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
					t.Fatalf("superclaude ended with %v, want killed by %v as the agent was", ws, sig)
				}
			})
		})
	}
}

// TestPrintRunLeavesSignalsToTheAgent: while a print-mode agent runs,
// SIGINT and SIGQUIT sent to superclaude (the terminal sends them to the
// agent too) do not end superclaude before the agent, and SIGTERM sent to
// superclaude alone is passed on, so the agent decides how the run ends.
func TestPrintRunLeavesSignalsToTheAgent(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		ready := filepath.Join(dir, "ready")
		agent := oneShotAgent(t, dir, "trap 'exit 7' TERM; touch "+ready+"; i=0; while [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done; exit 3")
		cmd := start(agent)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the agent never started")
			}
			time.Sleep(5 * time.Millisecond)
		}
		waitSignalsTaken(t, cmd.Process.Pid)
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Process.Signal(syscall.SIGQUIT)
		time.Sleep(50 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("superclaude %s: %v; want the agent's exit 7, from its SIGTERM trap", printArgs, err)
		}
	})
}

// waitSignalsTaken waits until superclaude, pid, has set up its signals
// for the agent's run: SIGINT and SIGQUIT ignored or caught, SIGTERM and
// SIGHUP caught. internal/handover does it just after the agent has
// started, so the agent's first words do not say it is done. Where
// /proc/PID/status is missing (macOS) it returns at once: main's path
// there sets them up before the agent starts.
func waitSignalsTaken(t *testing.T, pid int) {
	t.Helper()
	bit := func(s syscall.Signal) uint64 { return 1 << (uint(s) - 1) }
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return
		}
		var ign, cgt uint64
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
				ign, _ = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			}
			if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
				cgt, _ = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			}
		}
		quiet := bit(syscall.SIGINT) | bit(syscall.SIGQUIT)
		passed := bit(syscall.SIGTERM) | bit(syscall.SIGHUP)
		if (ign|cgt)&quiet == quiet && cgt&passed == passed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("superclaude never took its signals: SigIgn %x SigCgt %x", ign, cgt)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestHandoverComesBeforeTheHeavyInitialisers: `superclaude --version` is
// handed to the agent before cobra, the state store or net initialise. Go
// orders initialisers by import path and dependencies; an import added to
// internal/handover could move it after them and silently cost a third of
// a millisecond a run (docs/benchmarks.md). GODEBUG=inittrace=1 prints a
// line per package initialised, until the exec.
func TestHandoverComesBeforeTheHeavyInitialisers(t *testing.T) {
	dir := t.TempDir()
	agent := oneShotAgent(t, dir, "exit 0")
	heavy := []string{"github.com/spf13/cobra", "github.com/superclaude/superclaude/state", "net"}
	inits := func(args ...string) string {
		t.Helper()
		cmd := oneShotCommand(t, dir, agent, args...)
		cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("superclaude %s: %v\n%s", args, err, stderr.String())
		}
		return stderr.String()
	}
	// The probe sees them when the run is not taken early (superclaude's
	// --resume-policy is main's to read).
	all := inits("-p", "hi", "--resume-policy", "never")
	for _, p := range heavy {
		if !strings.Contains(all, "init "+p+" @") {
			t.Fatalf("inittrace of a run with --resume-policy has no line for %s:\n%s", p, all)
		}
	}
	for _, args := range [][]string{{"--version"}, {"-p", "hi"}, {"--model", "x", "-p", "hi"}, {"mcp", "list"}} {
		early := inits(args...)
		if !strings.Contains(early, "init os @") {
			t.Fatalf("inittrace of %s has no line for os:\n%s", args, early)
		}
		for _, p := range heavy {
			if strings.Contains(early, "init "+p+" @") {
				t.Errorf("%s initialised before %s was taken:\n%s", p, args, early)
			}
		}
		if pid, got := agentOut(t, dir); got != strings.Join(args, " ") || pid <= 0 {
			t.Errorf("the agent ran with %q, not %q", got, args)
		}
	}
}

// TestInstalledAsClaudeRunsTheRealOne: superclaude linked as `claude` in a
// directory ahead of the real claude on PATH, and run by that name, runs
// the real one: `claude --version` is handed over to it (it used to exec
// itself for ever), and `claude -p` runs it as a child.
func TestInstalledAsClaudeRunsTheRealOne(t *testing.T) {
	dir := t.TempDir()
	front, real := filepath.Join(dir, "front"), filepath.Join(dir, "real")
	for _, d := range []string{front, real} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(testbin.Superclaude(t), filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(oneShotAgent(t, dir, "exit 0"), filepath.Join(real, "claude")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--version"}, {"-p", "hi"}} {
		cmd := oneShotCommand(t, dir, "", args...)
		cmd.Path, cmd.Args[0] = filepath.Join(front, "claude"), "claude"
		if code, stderr := runOnPath(t, cmd, front+":"+real); code != 0 {
			t.Fatalf("claude %s through superclaude: exit %d, %s", args, code, stderr)
		}
		if _, got := agentOut(t, dir); got != strings.Join(args, " ") {
			t.Errorf("the real claude ran with %q, want %q", got, args)
		}
		os.Remove(filepath.Join(dir, "agent.out"))
	}
}

// Regression: two copies of superclaude on PATH as claude (an old install
// beside a new one: different files, so agentPath's passing over itself
// does not see them) exec'd each other for ever on --version, and built an
// ever longer chain of supervisors, each with its own pty and session, on
// -p and interactive starts. A copy started as the agent steps aside to
// the next claude on PATH (internal/handover: SUPERCLAUDE_AGENT_FILE); with
// none after it, the run ends at once with 127 and is not restarted.
func TestCopiesOfSuperclaudeOnPathStepAside(t *testing.T) {
	dir := t.TempDir()
	bin := testbin.Superclaude(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	d, e, real := filepath.Join(dir, "d"), filepath.Join(dir, "e"), filepath.Join(dir, "real")
	for _, sub := range []string{d, e, real} {
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{d, e} {
		if err := os.WriteFile(filepath.Join(sub, "claude"), data, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(oneShotAgent(t, dir, "exit 0"), filepath.Join(real, "claude")); err != nil {
		t.Fatal(err)
	}
	run := func(path string, args ...string) (code int, stderr string) {
		t.Helper()
		return runOnPath(t, oneShotCommand(t, dir, "", args...), path)
	}
	// ranReal checks that a run of args, which ended with code, ran the
	// real claude once, with one supervisor's settings when interactive.
	ranReal := func(how string, args []string, code int, stderr string) {
		t.Helper()
		if code != 0 {
			t.Fatalf("%s %q: exit %d, %s", how, args, code, stderr)
		}
		_, got := agentOut(t, dir)
		if want := strings.Join(args, " "); len(args) > 0 && got != want {
			t.Errorf("%s: the real claude ran with %q, want %q", how, got, want)
		}
		if len(args) == 0 && strings.Count(got, "--settings") != 1 {
			t.Errorf("%s: an interactive start gave the real claude %q: want one supervisor's --settings", how, got)
		}
	}
	for _, args := range [][]string{{"--version"}, {"-p", "hi"}, {}} {
		os.Remove(filepath.Join(dir, "agent.out"))
		code, stderr := run(d+":"+e+":"+real, args...)
		ranReal("superclaude with copies on PATH", args, code, stderr)
	}
	if code, stderr := run(d+":"+e, "--version"); code != 127 || !strings.Contains(stderr, "led back to superclaude") {
		t.Errorf("with only copies on PATH: exit %d, %q; want 127 and why", code, stderr)
	}
	// A shell script installed as claude that execs superclaude is a
	// different file again, and not superclaude: it used to be found as
	// claude by the superclaude it started, for ever. What a superclaude
	// started as its agent's parent tells it steps aside.
	shim := filepath.Join(dir, "shim")
	if err := os.Mkdir(shim, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shim, "claude"), []byte("#!/bin/sh\nexec "+bin+" \"$@\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--version"}, {"-p", "hi"}, {"--model", "x", "-p", "hi"}, {}} {
		os.Remove(filepath.Join(dir, "agent.out"))
		cmd := oneShotCommand(t, dir, "", args...)
		cmd.Args[0], cmd.Path = "claude", filepath.Join(shim, "claude")
		code, stderr := runOnPath(t, cmd, shim+":"+real)
		ranReal("claude through a script that execs superclaude", args, code, stderr)
	}
	// Handed over from a shell that has a job of its own, older than
	// superclaude: the shell adopts no orphans, and its jobs are not
	// asked about.
	os.Remove(filepath.Join(dir, "agent.out"))
	jobs := oneShotCommand(t, dir, "")
	jobs.Path, jobs.Args = "/bin/sh", []string{"sh", "-c", "sleep 5 > /dev/null 2>&1 & claude --version; exit $?"}
	code, stderr := runOnPath(t, jobs, shim+":"+real)
	ranReal("claude --version through the script, from a shell with a job", []string{"--version"}, code, stderr)
	// And one that adds arguments of its own before "$@", as wrappers do:
	// the agent's arguments end its own.
	adds := filepath.Join(dir, "adds")
	if err := os.Mkdir(adds, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(adds, "claude"), []byte("#!/bin/sh\nexec "+bin+" --model x \"$@\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-p", "hi"}, {"--version"}} {
		os.Remove(filepath.Join(dir, "agent.out"))
		code, stderr := runOnPath(t, oneShotCommand(t, dir, "", args...), adds+":"+real)
		if code != 0 {
			t.Fatalf("superclaude %q through a script adding --model x: exit %d, %s", args, code, stderr)
		}
		if _, got := agentOut(t, dir); got != "--model x "+strings.Join(args, " ") {
			t.Errorf("through a script adding --model x, the real claude ran with %q", got)
		}
	}
	// One that runs superclaude as a child of its own (no exec) is not
	// the agent by its parent either: it nests until SUPERCLAUDE_DEPTH
	// ends it, with a message, instead of forking for ever.
	fork := filepath.Join(dir, "fork")
	// Nor one that runs superclaude +run, one of superclaude's own
	// commands that starts an agent.
	plus := filepath.Join(dir, "plus")
	for sub, script := range map[string]string{fork: bin + ` "$@"`, plus: "exec " + bin + ` +run -- "$@"`} {
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "claude"), []byte("#!/bin/sh\n"+script+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"--version"}, {"-p", "hi"}} {
			code, stderr := runOnPath(t, oneShotCommand(t, dir, "", args...), sub+":"+real)
			if code != 127 || !strings.Contains(stderr, "nested 6 deep") {
				t.Errorf("superclaude %q with %q as claude: exit %d, %q; want 127 and why", args, script, code, stderr)
			}
		}
	}
}

// runOnPath runs cmd with PATH set to path and the system's directories,
// and returns its exit code and stderr; a run that has not ended within
// 20 s (a loop of execs) fails the test.
func runOnPath(t *testing.T, cmd *exec.Cmd, path string) (code int, stderr string) {
	t.Helper()
	cmd.Env = append(slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }),
		"PATH="+path+":/usr/bin:/bin")
	var out strings.Builder
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), out.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, out.String()
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s %q never ended", cmd.Args[0], cmd.Args[1:])
		return 0, ""
	}
}

// TestPrintRunSparesTheShellsOwnJobs: `job & exec superclaude -p …` in a
// script makes the job superclaude's child; the sweep after the agent used
// to kill it as a leftover (a hostile tester's find).
func TestPrintRunSparesTheShellsOwnJobs(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		job, grandchild := filepath.Join(dir, "job.pid"), filepath.Join(dir, "grandchild.pid")
		cmd := start(oneShotAgent(t, dir, "sleep 1; exit 4"))
		// Two jobs: one that runs on, one that ends while the agent runs
		// and leaves its own child, which then has no parent.
		cmd.Args = append([]string{"sh", "-c", "sleep 60 & echo $! > " + job +
			"; ( sh -c 'echo $$ > " + grandchild + "; sleep 0.3; exec sleep 61' & sleep 0.1 ) &" + ` exec "$0" "$@"`}, cmd.Args...)
		cmd.Path = "/bin/sh"
		var ee *exec.ExitError
		if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 4 {
			t.Fatalf("superclaude %s after a job: %v, want the agent's exit 4", printArgs, err)
		}
		for _, spared := range []struct{ file, what string }{
			{job, "a job of the shell that exec'd superclaude"},
			{grandchild, "what a job of the shell left when it ended"},
		} {
			pid := pidIn(t, spared.file, spared.what)
			defer syscall.Kill(pid, syscall.SIGKILL)
			if !proc.PIDAlive(pid) {
				t.Errorf("the sweep after the agent killed %s", spared.what)
			}
		}
	})
}

// TestPrintRunSweepsWhatALeftoverStartsWhileEnded: a leftover that ignores
// SIGTERM lives for the sweep's grace, and what it starts meanwhile is not
// in the sweep's list; once the leftover is killed it comes to us (a
// subreaper) and the next pass ends it. Before, one pass was all, and it
// outlived superclaude (a hostile tester's find).
func TestPrintRunSweepsWhatALeftoverStartsWhileEnded(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		late, ready := filepath.Join(dir, "late.pid"), filepath.Join(dir, "trapped")
		// The agent waits for the leftover to ignore SIGTERM: a sweep's
		// SIGTERM before that would end it at once.
		agent := oneShotAgent(t, dir, `setsid sh -c 'trap "" TERM; touch `+ready+`; sleep 0.1; setsid sleep 308 & echo $! > `+late+`; sleep 60' &
while [ ! -e `+ready+` ]; do sleep 0.01; done; exit 0`)
		if err := start(agent).Run(); err != nil {
			t.Fatalf("superclaude %s: %v", printArgs, err)
		}
		waitGone(t, pidIn(t, late, "what the leftover started within 0.1 s of a 1 s grace"), "what a leftover started during the sweep outlived superclaude")
	})
}

// TestPrintRunFinishesItsSweepWhenTold: SIGTERM sent to superclaude while
// it sweeps after the agent neither cuts the sweep short nor loses the
// agent's exit code. Before, it ended superclaude at once, exit 143, and
// the leftover lived on (a hostile tester's find).
func TestPrintRunFinishesItsSweepWhenTold(t *testing.T) {
	onPrintPaths(t, func(t *testing.T, dir string, start func(string) *exec.Cmd) {
		left, agentPID := filepath.Join(dir, "left.pid"), filepath.Join(dir, "agent.pid")
		agent := oneShotAgent(t, dir, `setsid sh -c 'trap "" TERM; echo $$ > `+left+`; exec sleep 340' &
while [ ! -s `+left+` ]; do sleep 0.01; done; echo $$ > `+agentPID+`; exit 9`)
		cmd := start(agent)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once the agent is reaped, superclaude is sweeping: the
		// leftover ignores SIGTERM, so the sweep waits out its grace.
		deadline := time.Now().Add(10 * time.Second)
		for {
			b, _ := os.ReadFile(agentPID)
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the agent never ended")
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 9 {
			t.Errorf("superclaude %s, told to stop while sweeping: %v; want the agent's exit 9", printArgs, err)
		}
		b, _ := os.ReadFile(left)
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 && proc.PIDAlive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Error("the leftover outlived a sweep that was told to stop")
		}
	})
}

// TestAnOrphanAdoptedByAOneShotRunIsNotItsAgent: a one-shot superclaude is
// a subreaper and the agent's recorded parent, so a process its agent left
// and it adopted has the agent's parent too. Running superclaude for
// itself there, it used to be taken for the agent, pass over the only
// claude and fail, exit 127 (a hostile tester's find).
func TestAnOrphanAdoptedByAOneShotRunIsNotItsAgent(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "nested.out")
	agent := oneShotAgent(t, dir, `if [ "$2" = sub ]; then echo sub ran; exit 0; fi
setsid -f "$SC" -p sub > `+out+` 2>&1
i=0; while ! grep -q ran `+out+` 2>/dev/null && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done`)
	cmd := oneShotCommand(t, dir, agent, "-p", "top")
	cmd.Env = append(cmd.Env, "SC="+testbin.Superclaude(t))
	if err := cmd.Run(); err != nil {
		t.Fatalf("superclaude -p top: %v", err)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "sub ran") {
		t.Fatalf("the adopted orphan's superclaude -p sub printed %q; want its agent's answer", b)
	}
}

// TestAnOrphanDoesNotHandOverToAnotherClaude: with two claudes on PATH, the
// orphan of the test above used to step aside as if it were the agent and
// run the second claude, unsupervised (a hostile tester's find). The
// agent's recorded arguments tell it apart.
func TestAnOrphanDoesNotHandOverToAnotherClaude(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "nested.out")
	for _, n := range []string{"1", "2"} {
		sub := filepath.Join(dir, "bin"+n)
		body := `#!/bin/sh
if [ "$2" = sub ]; then echo "claude ` + n + ` ran"; exit 0; fi
setsid -f "$SC" -p sub > ` + out + ` 2>&1
i=0; while ! grep -q ran ` + out + ` 2>/dev/null && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done
`
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "claude"), []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cmd := oneShotCommand(t, dir, "", "-p", "top")
	cmd.Env = append(cmd.Env, "SC="+testbin.Superclaude(t))
	if code, stderr := runOnPath(t, cmd, filepath.Join(dir, "bin1")+":"+filepath.Join(dir, "bin2")); code != 0 {
		t.Fatalf("superclaude -p top: exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "claude 1 ran") {
		t.Fatalf("the adopted orphan's superclaude -p sub printed %q; want the first claude's answer", b)
	}
}

// TestAnOrphanWhoseArgumentsEndLikeTheAgentsIsNotItsAgent: a wrapper may
// add arguments before the agent's, so the agent is known by its
// arguments at the end of its own; an orphan the one-shot superclaude
// adopted whose arguments end the same (`-p`, the prompt on stdin) used
// to pass for it (a hostile tester's find). It is not the eldest child.
func TestAnOrphanWhoseArgumentsEndLikeTheAgentsIsNotItsAgent(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "nested.out")
	agent := oneShotAgent(t, dir, `if [ "$1" = --model ]; then echo sub ran; exit 0; fi
setsid -f "$SC" --model x -p < /dev/null > `+out+` 2>&1
i=0; while ! grep -q ran `+out+` 2>/dev/null && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done`)
	cmd := oneShotCommand(t, dir, agent, "-p")
	cmd.Env = append(cmd.Env, "SC="+testbin.Superclaude(t))
	if err := cmd.Run(); err != nil {
		t.Fatalf("superclaude -p: %v", err)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "sub ran") {
		t.Fatalf("the adopted orphan's superclaude --model x -p printed %q; want its agent's answer", b)
	}
}

// TestAMissingAgentSaysHowToFixIt: with no claude on PATH (an install that
// made claude a shell alias, say), an interactive start and a one-shot run
// exit 127 as a shell does, say what to do, and create nothing.
func TestAMissingAgentSaysHowToFixIt(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{nil, {"--version"}, {"-p", "hi"}} {
		cmd := oneShotCommand(t, dir, "", args...)
		cmd.Env = append(cmd.Env, "PATH="+filepath.Join(dir, "empty"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 127 {
			t.Errorf("superclaude %q without claude: %v, want exit 127", args, err)
		}
		if !strings.Contains(stderr.String(), "set SUPERCLAUDE_AGENT to its path") {
			t.Errorf("superclaude %q without claude said %q, want how to fix it", args, stderr.String())
		}
	}
	for _, d := range []string{"sessions", "state"} {
		if entries, _ := os.ReadDir(filepath.Join(dir, d)); len(entries) != 0 {
			t.Errorf("a start without claude left %s/%v", d, entries)
		}
	}
}
