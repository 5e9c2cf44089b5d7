package child

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"

	// The session leader (issue 9, item 3: job control): this program,
	// re-executed, leads the agent's session so that the agent can stop
	// on Ctrl-Z. The role runs from that package's init, before the rest
	// of the program initialises (see its doc).
	"github.com/superclaude/superclaude/child/internal/leader"
	"github.com/superclaude/superclaude/internal/guard"
)

// withAgentParent is leader.WithAgentParent: the agent's parent, in the
// agent's environment.
var withAgentParent = leader.WithAgentParent

// leaderEnv is the session leader's whole environment: the role and its
// protocol's version; one processor (it only waits: fewer threads, less
// memory); and TERM=dumb, which keeps any package initialiser it shares
// with the supervisor from talking to a terminal (bubbletea v1's asked a
// terminal for its colours at init and waited up to 5 s).
var leaderEnv = []string{leader.Env + "=" + leader.Version, "GOMAXPROCS=1", "TERM=dumb"}

// sessionLeader is one session leader and our end of its control socket.
// A terminal keeps one between its agents (Terminal.takeLeader): a
// restart's new agent is started by the leader of the last, which takes
// the new pty as its session's terminal, instead of by a leader of its
// own, this program started again — a Go runtime's start, 3–10 ms of a
// restart on a loaded machine (issue 22).
type sessionLeader struct {
	cmd  *exec.Cmd
	conn *net.UnixConn
	// events are its reports, in order; closed when it is gone.
	events chan leader.Event
	// exited is closed once it has been waited for (cmd.ProcessState).
	exited chan struct{}
}

// startLeader starts a session leader, in a session of its own with no
// terminal yet.
func startLeader() (*sessionLeader, error) {
	exe, err := leaderExecutable()
	if err != nil {
		return nil, err
	}
	// Close-on-exec before any other fork can see them (os/exec holds
	// ForkLock while it forks): a copy of our end in another child would
	// keep the leader from ever reading its end of file.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "leader"), os.NewFile(uintptr(fds[1]), "leader")
	cmd := &exec.Cmd{Path: exe, Args: []string{"superclaude-pty-leader"},
		// Its own environment, marker-free (leaderEnv); its standard
		// files /dev/null: each agent's terminal comes with its command.
		Env:         leaderEnv,
		ExtraFiles:  []*os.File{theirs}, // leader.CtlFD
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	SetDeathSignal(cmd.SysProcAttr, leaderDeathSignal)
	err = startCmd(cmd)
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, err
	}
	c, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		disown(cmd.Process.Pid)
		return nil, err
	}
	l := &sessionLeader{cmd: cmd, conn: c.(*net.UnixConn), events: make(chan leader.Event, 8), exited: make(chan struct{})}
	guard.Go(func() {
		leader.ReadEvents(l.conn, func(ev leader.Event) { l.events <- ev })
		close(l.events)
	})
	guard.Go(func() {
		cmd.Wait()
		disown(cmd.Process.Pid)
		close(l.exited)
	})
	return l, nil
}

// send gives the leader an agent's command and its terminal, tty (the
// pty's slave), which the caller may close once send returns.
func (l *sessionLeader) send(path string, spec Spec, env []string, tty *os.File) error {
	rc, err := tty.SyscallConn()
	if err != nil {
		return err
	}
	data := leader.EncodeSpec(path, spec.Dir, spec.Args, env)
	var werr error
	if err := rc.Control(func(fd uintptr) {
		hdr, oob := leader.Frame(data, int(fd))
		_, _, werr = l.conn.WriteMsgUnix(hdr, oob, nil)
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	_, err = l.conn.Write(data)
	return err
}

// close ends the leader: it reads the end of its socket, and exits.
func (l *sessionLeader) close() { l.conn.Close() }

// gone reports whether the leader has ended.
func (l *sessionLeader) gone() bool {
	select {
	case <-l.exited:
		return true
	default:
		return false
	}
}

// errLeaderGone: the leader ended before it said how the agent did.
var errLeaderGone = errors.New("the session leader ended before starting the agent")

// leaders is what a Terminal keeps of session leaders: the one waiting
// for its next agent, if any.
type leaders struct {
	mu     sync.Mutex
	idle   *sessionLeader
	closed bool
}

// takeLeader returns the terminal's waiting leader, or a new one when
// none waits (the first agent, or one started while another runs).
func (t *Terminal) takeLeader() (*sessionLeader, error) {
	t.leaders.mu.Lock()
	l := t.leaders.idle
	t.leaders.idle = nil
	t.leaders.mu.Unlock()
	if l != nil && !l.gone() {
		return l, nil
	}
	return startLeader()
}

// giveBack keeps l, whose agent has exited, for the next agent; a second
// one, or one given back after Close, is ended.
func (t *Terminal) giveBack(l *sessionLeader) {
	t.leaders.mu.Lock()
	if t.leaders.idle == nil && !t.leaders.closed && !l.gone() {
		t.leaders.idle = l
		l = nil
	}
	t.leaders.mu.Unlock()
	if l != nil {
		l.close()
	}
}

// Close ends the session leader the terminal keeps for its next agent.
// A supervisor calls it once its run is over; until then the leader
// waits, costing no wakeups. (It would end with the program anyway: its
// parent-death signal, or its socket's end of file.) An agent started
// afterwards gets a leader of its own, ended with it.
func (t *Terminal) Close() {
	if t == nil {
		return
	}
	t.leaders.mu.Lock()
	l := t.leaders.idle
	t.leaders.idle, t.leaders.closed = nil, true
	t.leaders.mu.Unlock()
	if l != nil {
		l.close()
	}
}
