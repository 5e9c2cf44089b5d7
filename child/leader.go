package child

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// The session leader (issue 9, item 3: job control).
//
// An agent on a pty must have the pty as its controlling terminal, so some
// process must lead a new session. If the agent leads it, its process group
// is orphaned — its only parent, the supervisor, is in another session —
// and the kernel (Linux and macOS alike) discards SIGTSTP for an orphaned
// group: Claude Code prints "suspended" on Ctrl-Z and keeps running. So a
// small leader leads the session instead: this same program, re-executed.
// It starts the agent in a process group of its own in the foreground of
// the pty; the agent's parent (the leader) is then in the agent's session
// but another group, the group is not orphaned, and the agent can stop.
// The leader reports every stop, continue and the exit to the supervisor
// over a pipe, and otherwise does nothing: the agent's PID, identity and
// exit status are the agent's own, as before.
//
// The leader's own environment holds nothing but envLeader (and
// GOMAXPROCS): the agent's
// command line and environment come over a second pipe. So the leader
// never carries the supervisor's marker, and sweeps and kills, which look
// for the marker, only ever see the agent and its descendants.

// withAgentParent returns env with envvar.AgentParent set for an agent
// that pid starts with args; adopts says pid is a subreaper. (Env nil means
// the parent's environment, as for os/exec.)
//
// The variable names, in the agent's environment, the PID of its parent:
// the session leader, or the supervisor when there is no pty. A program
// can tell from it that it is the agent a supervisor started (or what the
// agent exec'd), not a process the agent started: superclaude, found as
// claude through a shell script that execs it, steps aside by it
// (internal/handover, which reads the value envvar.AgentParentValue
// writes).
func withAgentParent(env []string, pid int, args []string, adopts bool) []string {
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, envvar.AgentParent+"=") })
	value := envvar.AgentParentValue(pid, args)
	if adopts {
		value += envvar.Adopts
	}
	return append(env, envvar.AgentParent+"="+value)
}

// envLeader, set in the environment, makes this program the session leader
// (see init). Its value is the protocol version.
const envLeader = envvar.PTYLeader

const leaderVersion = "1"

// The leader's files: fd 3 is where it reports, fd 4 where it reads the
// agent's command.
const (
	leaderStatusFD = 3
	leaderSpecFD   = 4
)

// init turns this process into the session leader when the supervisor
// re-executed it as one. It is an init function, not a call main has to
// make, so that every program that can start agents on a pty — superclaude,
// a library user's program, every test binary — can also lead their
// sessions: forgetting a call in main would run the whole program again
// in the leader's place.
func init() {
	if v, ok := os.LookupEnv(envLeader); ok {
		if v != leaderVersion {
			fmt.Fprintf(os.Stderr, "superclaude: session leader protocol %q, want %q\n", v, leaderVersion)
			os.Exit(126)
		}
		os.Exit(runLeader())
	}
}

// encodeSpec writes the agent's command for the leader: NUL-separated
// fields (no argument or environment entry can hold a NUL).
func encodeSpec(path, dir string, args, env []string) []byte {
	var b bytes.Buffer
	for _, f := range []string{path, dir, strconv.Itoa(len(args))} {
		b.WriteString(f)
		b.WriteByte(0)
	}
	for _, f := range append(append([]string{}, args...), env...) {
		b.WriteString(f)
		b.WriteByte(0)
	}
	return b.Bytes()
}

func decodeSpec(b []byte) (path, dir string, args, env []string, err error) {
	f := strings.Split(string(b), "\x00")
	if len(f) < 4 || f[len(f)-1] != "" {
		return "", "", nil, nil, errors.New("short agent command")
	}
	f = f[:len(f)-1]
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 || 3+n > len(f) {
		return "", "", nil, nil, errors.New("bad argument count")
	}
	return f[0], f[1], f[3 : 3+n], f[3+n:], nil
}

// runLeader is the leader's whole life: start the agent, report, wait.
func runLeader() int {
	// The agent's parent-death signal is tied to the thread that forks it
	// (golang/go#27505); the main goroutine keeps its thread to the end.
	runtime.LockOSThread()
	status := os.NewFile(leaderStatusFD, "status")
	specFile := os.NewFile(leaderSpecFD, "spec")
	if status == nil || specFile == nil {
		fmt.Fprintln(os.Stderr, "superclaude: session leader started without its pipes")
		return 126
	}
	// Neither pipe may reach the agent: the status pipe's end-of-file is
	// how the supervisor knows the leader is gone.
	unix.CloseOnExec(leaderStatusFD)
	unix.CloseOnExec(leaderSpecFD)
	report := func(format string, args ...any) { fmt.Fprintf(status, format+"\n", args...) }

	data, err := io.ReadAll(specFile)
	specFile.Close()
	path, dir, args, env, derr := decodeSpec(data)
	if err != nil || derr != nil {
		report("error 1 reading the agent's command: %v", errors.Join(err, derr))
		return 1
	}
	// A hangup of the pty reaches the agent itself; the leader stays to
	// report how the agent ended. Caught, not ignored: an ignored signal
	// would stay ignored in the agent.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)

	env = withAgentParent(env, os.Getpid(), args, false)
	cmd := &exec.Cmd{Path: path, Args: append([]string{path}, args...), Env: env, Dir: dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	// Its own process group, in the pty's foreground (Ctty is our fd 0,
	// the pty); the session and the controlling terminal are ours.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: 0}
	SetDeathSignal(cmd.SysProcAttr, agentDeathSignal)
	if err := cmd.Start(); err != nil {
		report("error %d %s", StartFailure(err).Code, oneLine(err.Error()))
		return 1
	}
	pid := cmd.Process.Pid
	// Not reaped before our wait below: the PID still names the agent.
	id, err := proc.Of(pid)
	if err != nil {
		id = proc.Identity{PID: pid}
	}
	report("start %s", id.String())
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(pid, &ws, unix.WUNTRACED|unix.WCONTINUED, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			report("error 1 waiting for the agent: %s", oneLine(err.Error()))
			return 1
		}
		switch {
		case ws.Stopped():
			report("stop %d", int(ws.StopSignal()))
		case ws.Continued():
			report("cont")
		default:
			report("exit %d", uint32(ws))
			return 0
		}
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// leaderEvent is one report of the leader.
type leaderEvent struct {
	kind   string // start, stop, cont, exit, error
	id     proc.Identity
	signal syscall.Signal
	status syscall.WaitStatus
	code   int
	err    error
}

func parseLeaderEvent(line string) (leaderEvent, error) {
	kind, rest, _ := strings.Cut(strings.TrimRight(line, "\n"), " ")
	ev := leaderEvent{kind: kind}
	switch kind {
	case "start":
		id, err := proc.Parse(rest)
		if err != nil {
			return ev, err
		}
		ev.id = id
	case "stop":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return ev, err
		}
		ev.signal = syscall.Signal(n)
	case "cont":
	case "exit":
		n, err := strconv.ParseUint(rest, 10, 32)
		if err != nil {
			return ev, err
		}
		ev.status = syscall.WaitStatus(n)
	case "error":
		code, msg, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(code)
		if err != nil {
			return ev, err
		}
		ev.code, ev.err = n, errors.New(msg)
	default:
		return ev, fmt.Errorf("unknown report %q", line)
	}
	return ev, nil
}

// readLeaderEvents reads reports until the leader closes its end.
func readLeaderEvents(r io.Reader, each func(leaderEvent)) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if ev, perr := parseLeaderEvent(line); perr == nil {
				each(ev)
			}
		}
		if err != nil {
			return
		}
	}
}
