package leader

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// Env, set in the environment, makes the program the session leader (see
// init). Its value is the protocol's version, Version.
const Env = envvar.PTYLeader

// Version is the protocol's version.
const Version = "1"

// The leader's files: StatusFD is where it reports, SpecFD where it reads
// the agent's command.
const (
	StatusFD = 3
	SpecFD   = 4
)

// AgentDeathSignal is what the agent gets when the thread that started it
// exits (SetDeathSignal): SIGHUP, a terminal's hangup (child/starter.go
// says why).
const AgentDeathSignal = syscall.SIGHUP

func init() {
	v, ok := os.LookupEnv(Env)
	if !ok {
		return
	}
	if v != Version {
		os.Stderr.WriteString("superclaude: session leader protocol " + strconv.Quote(v) + ", want " + strconv.Quote(Version) + "\n")
		os.Exit(126)
	}
	os.Exit(run())
}

// run is the leader's whole life: start the agent, report, wait.
func run() int {
	// The agent's parent-death signal is tied to the thread that forks it
	// (golang/go#27505); the main goroutine keeps its thread to the end.
	runtime.LockOSThread()
	status := os.NewFile(StatusFD, "status")
	specFile := os.NewFile(SpecFD, "spec")
	if status == nil || specFile == nil {
		os.Stderr.WriteString("superclaude: session leader started without its pipes\n")
		return 126
	}
	// Neither pipe may reach the agent: the status pipe's end-of-file is
	// how the supervisor knows the leader is gone.
	syscall.CloseOnExec(StatusFD)
	syscall.CloseOnExec(SpecFD)
	report := func(line string) { status.WriteString(line + "\n") }

	data, err := io.ReadAll(specFile)
	specFile.Close()
	path, dir, args, env, derr := DecodeSpec(data)
	if err != nil || derr != nil {
		report("error 1 reading the agent's command: " + oneLine(errors.Join(err, derr).Error()))
		return 1
	}
	// A hangup of the pty reaches the agent itself; the leader stays to
	// report how the agent ended. Caught, not ignored: an ignored signal
	// would stay ignored in the agent.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)

	// Its own process group, in the pty's foreground (Ctty is our fd 0,
	// the pty); the session and the controlling terminal are ours.
	sys := &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: 0}
	SetDeathSignal(sys, AgentDeathSignal)
	p, err := os.StartProcess(path, append([]string{path}, args...), &os.ProcAttr{
		Dir: dir, Env: dedupEnv(WithAgentParent(env, os.Getpid(), args, false)),
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}, Sys: sys})
	if err != nil {
		report("error " + strconv.Itoa(StartCode(err)) + " " + oneLine(err.Error()))
		return 1
	}
	pid := p.Pid
	// Not reaped before our wait below: the PID still names the agent.
	id, err := proc.Of(pid)
	if err != nil {
		id = proc.Identity{PID: pid}
	}
	report("start " + id.String())
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED|syscall.WCONTINUED, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			report("error 1 waiting for the agent: " + oneLine(err.Error()))
			return 1
		}
		switch {
		case ws.Stopped():
			report("stop " + strconv.Itoa(int(ws.StopSignal())))
		case ws.Continued():
			report("cont")
		default:
			report("exit " + strconv.FormatUint(uint64(uint32(ws)), 10))
			return 0
		}
	}
}

// dedupEnv keeps the last of entries with the same name, as os/exec does
// for a command's environment.
func dedupEnv(env []string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	out := env[:0:0]
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if last[k] == i {
			out = append(out, kv)
		}
	}
	return out
}

// StartCode is a shell's code for a program that could not be started:
// 126 for a file found but not executable (no permission, no format the
// system can run), 127 for one not found, 1 otherwise.
func StartCode(err error) int {
	switch {
	case errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.ENOEXEC):
		return 126
	case errors.Is(err, os.ErrNotExist):
		return 127
	}
	return 1
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
