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
const Version = "2"

// CtlFD is the leader's control socket (a Unix stream socket): it reads
// each agent's command there, with the agent's terminal (SendSpec), and
// writes its reports (ParseEvent).
const CtlFD = 3

// AgentDeathSignal is what the agent gets when the thread that started it
// exits (SetDeathSignal): SIGHUP, a terminal's hangup (child/starter.go
// says why).
const AgentDeathSignal = syscall.SIGHUP

func init() {
	v, ok := os.LookupEnv(Env)
	if !ok {
		return
	}
	if !handedControl() {
		// The variable alone makes nobody a leader: a repository's
		// .claude/settings.json puts its `env` in the environment of
		// every hook and status line claude runs, and
		// SUPERCLAUDE_PTY_LEADER=2 there turned each `superclaude +hook`
		// into a leader that found no socket and exited 1 — every hook
		// failed, and failing hooks block nothing. What only a supervisor
		// gives its leader is the control socket on CtlFD.
		os.Unsetenv(Env)
		return
	}
	if v != Version {
		os.Stderr.WriteString("superclaude: session leader protocol " + strconv.Quote(v) + ", want " + strconv.Quote(Version) + "\n")
		os.Exit(126)
	}
	os.Exit(run())
}

// run is the leader's whole life: for each command that comes, take the
// terminal that comes with it, start the agent, report, wait; until the
// supervisor closes the socket.
//
// One leader serves every agent of its supervisor, one after the other:
// a restart used to start a new leader — this program, executed again, a
// Go runtime's start — before every agent, the larger part of the
// supervisor's own share of a restart (issue 22).
func run() int {
	// The agent's parent-death signal is tied to the thread that forks it
	// (golang/go#27505); the main goroutine keeps its thread to the end.
	runtime.LockOSThread()
	ctl := os.NewFile(CtlFD, "control")
	if ctl == nil {
		os.Stderr.WriteString("superclaude: session leader started without its control socket\n")
		return 126
	}
	// The socket may not reach the agent: its end of file is how each
	// side knows the other is gone.
	syscall.CloseOnExec(CtlFD)
	report := func(line string) { ctl.WriteString(line + "\n") }
	// A hangup of a pty reaches the agent itself; the leader stays to
	// report how the agent ended, and for the next. Caught, not ignored:
	// an ignored signal would stay ignored in the agent.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	for {
		data, tty, err := readSpec(CtlFD)
		if errors.Is(err, io.EOF) {
			return 0 // the supervisor is done with us
		}
		if err != nil {
			report("error 1 reading the agent's command: " + oneLine(err.Error()))
			return 1
		}
		path, dir, args, env, err := DecodeSpec(data)
		if err == nil && tty < 0 {
			err = errors.New("no terminal came with it")
		}
		if err != nil {
			report("error 1 reading the agent's command: " + oneLine(err.Error()))
			closeFD(tty)
			continue
		}
		report(runAgent(report, tty, path, dir, args, env))
	}
}

// runAgent starts one agent on tty, which it makes the session's
// controlling terminal, reports its start and its stops, and returns the
// report of its end once it has exited — after it has given the terminal
// up, so that the next agent's can be taken.
//
// It holds tty until then, as a leader of one agent held it as its
// standard files: the session keeps its controlling terminal whether or
// not anyone has it open, and only a descriptor of it can give it up (an
// open of /dev/tty fails once nobody has the terminal open). The pty's
// end of file comes once the agent's descendants have closed theirs.
func runAgent(report func(string), tty int, path, dir string, args, env []string) string {
	if err := takeTerminal(tty); err != nil {
		closeFD(tty)
		return "error 1 taking the agent's terminal: " + oneLine(err.Error())
	}
	// The terminal blocks, as one a shell gives a program does. The
	// supervisor's Go runtime opened it non-blocking (os.OpenFile puts a
	// terminal in its poller), and the flag belongs to the open file
	// description this descriptor shares: left on, every agent that reads
	// its terminal without handling EAGAIN (cat, dash, Python) saw its
	// reads fail. Set before os.NewFile, so that the file is a plain one.
	syscall.SetNonblock(tty, false)
	t := os.NewFile(uintptr(tty), "tty")
	defer t.Close()
	defer giveUpTerminal(tty)
	// Its own process group, in the pty's foreground (Ctty is our
	// descriptor of the pty); the session and the controlling terminal
	// are ours.
	sys := &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: tty}
	SetDeathSignal(sys, AgentDeathSignal)
	p, err := os.StartProcess(path, append([]string{path}, args...), &os.ProcAttr{
		Dir: dir, Env: dedupEnv(WithAgentParent(env, os.Getpid(), args, false)),
		Files: []*os.File{t, t, t}, Sys: sys})
	if err != nil {
		return "error " + strconv.Itoa(StartCode(err)) + " " + oneLine(err.Error())
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
			return "error 1 waiting for the agent: " + oneLine(err.Error())
		}
		switch {
		case ws.Stopped():
			report("stop " + strconv.Itoa(int(ws.StopSignal())))
		case ws.Continued():
			report("cont")
		default:
			return "exit " + strconv.FormatUint(uint64(uint32(ws)), 10)
		}
	}
}

func closeFD(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
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
