package child

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/child/internal/leader"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/proc"
)

// Spec is one agent process to start.
type Spec struct {
	// Path is the executable; a bare name is looked up in $PATH.
	Path string
	// Args are its arguments, without the program name.
	Args []string
	// Env is its whole environment.
	Env []string
	// Dir is its working directory; empty means ours.
	Dir string
	// Rewrite, when set, rewrites the agent's output on its way to our
	// terminal (on a pty only): superclaude uses it to turn Claude Code's
	// exit hint `claude --resume <id>`, which would start claude without
	// its supervisor, into `superclaude --resume <id>`.
	Rewrite RewriteFunc
	// HoldKeys holds what is typed from its start until it is given it
	// (Agent.GiveTypeahead, once its supervisor sees it ready): a program
	// not ready for keys yet loses them — a restarted claude drops what
	// is typed before it draws its prompt (held.go).
	HoldKeys bool
}

// DrainTimeout bounds how long Wait keeps copying output after the process
// has exited, for a descendant that still holds the pty open. The watchdog's
// sweep normally ends such processes well before.
var DrainTimeout = 2 * time.Second

// Agent is one running agent process.
type Agent struct {
	// cmd is the agent itself without a terminal; on a pty the agent is
	// the child of a session leader (leader).
	cmd   *exec.Cmd
	id    proc.Identity // the agent's own
	pty   *os.File      // nil without a terminal
	ptyIO io.ReadWriter // the relay's reads and writes of pty
	term  *Terminal
	// typed logs what is written to pty, for Typed (typed.go).
	typed typedLog

	modesMu sync.Mutex
	modes   *modeTracker
	// notice is a terminal notification waiting for the output to reach
	// a boundary, and tail the bytes of an incomplete character at the
	// output's end (notice.go); both under modesMu.
	notice  []byte
	tail    [utf8.UTFMax]byte
	tailN   int
	copied  copyStats
	rewrite RewriteFunc
	// outWake is closed at the agent's next output (NextOutput), under
	// modesMu; nil while nobody waits.
	outWake chan struct{}

	// leader is the session leader that runs it (on a pty); leaderDone
	// is closed once the leader has said how it ended — status, its wait
	// status, or leaderErr — or has ended itself.
	leader     *sessionLeader
	leaderDone chan struct{}
	status     *syscall.WaitStatus
	leaderErr  error

	outDone chan struct{}
	done    chan struct{}
	exit    Exit
}

// Start starts spec. With a terminal the agent runs on a new pty sized like
// it, in the pty's foreground process group, in a session a small leader
// holds for it (so that it can stop on Ctrl-Z: leader.go); without one it
// inherits our standard files.
func Start(spec Spec, t *Terminal) (*Agent, error) {
	path, err := exec.LookPath(spec.Path)
	if err != nil {
		return nil, err
	}
	a := &Agent{term: t, rewrite: spec.Rewrite, outDone: make(chan struct{}), done: make(chan struct{}), leaderDone: make(chan struct{})}
	started := time.Now()
	if t != nil {
		err = a.startOnPTY(path, spec, t)
	} else {
		err = a.startDirect(path, spec)
	}
	if err != nil {
		return nil, err
	}
	guard.Go(func() { a.wait(started) })
	return a, nil
}

func (a *Agent) startDirect(path string, spec Spec) error {
	cmd := exec.Command(path, spec.Args...)
	cmd.Env, cmd.Dir = withAgentParent(spec.Env, os.Getpid(), spec.Args, true), spec.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	SetDeathSignal(cmd.SysProcAttr, agentDeathSignal)
	if err := startCmd(cmd); err != nil {
		return err
	}
	a.cmd = cmd
	close(a.outDone)
	close(a.leaderDone)
	// The child cannot be reaped before Wait, so its PID still names it.
	a.id, _ = proc.Of(cmd.Process.Pid)
	if a.id.IsZero() {
		a.id = proc.Identity{PID: cmd.Process.Pid}
	}
	return nil
}

// startError is an agent the leader could not start.
type startError struct {
	code int
	err  error
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

func (a *Agent) startOnPTY(path string, spec Spec, t *Terminal) error {
	master, slave, err := openPTY(t.Size())
	if err != nil {
		return err
	}
	l, err := t.takeLeader()
	if err != nil {
		closeAll(master, slave)
		return err
	}
	env := spec.Env
	if env == nil {
		env = os.Environ() // ours, as os/exec gives; the leader's is bare
	}
	err = l.send(path, spec, env, slave)
	slave.Close() // the leader's now, and the agent's
	if err != nil {
		l.close()
		master.Close()
		return err
	}
	ev, ok := <-l.events
	switch {
	case !ok:
		master.Close()
		return &startError{code: 1, err: errLeaderGone}
	case ev.Kind != "start":
		master.Close()
		t.giveBack(l)
		if ev.Kind == "error" {
			return &startError{code: ev.Code, err: ev.Err}
		}
		return &startError{code: 1, err: errors.New("the session leader reported " + ev.Kind + " before starting the agent")}
	}
	a.leader, a.id, a.pty, a.term = l, ev.ID, master, t
	guard.Go(func() {
		defer close(a.leaderDone)
		for ev := range l.events {
			switch ev.Kind {
			case "exit":
				st := ev.Status
				a.status = &st
				t.giveBack(l)
				return
			case "stop":
				a.term.agentStopped(a)
			case "error":
				// It could not wait for the agent: the agent is not its
				// to report any more.
				a.leaderErr = ev.Err
				t.giveBack(l)
				return
			}
		}
	})
	a.ptyIO = relayFile(master)
	a.modes = newModeTracker()
	guard.Go(a.copyOutput)
	t.attach(a, spec.HoldKeys)
	return nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// copyOutput copies the pty to our terminal until the pty reports EIO (the
// last holder of the terminal has gone) or is closed.
func (a *Agent) copyOutput() {
	defer close(a.outDone)
	var dst io.Writer = modeWriter{a}
	if a.rewrite != nil {
		rw := newRewriter(dst, a.rewrite)
		defer rw.Flush() // before outDone: the tail is out when Done closes
		dst = rw
	}
	copyDecoupled(dst, a.ptyIO, &a.copied)
}

// modeWriter writes the agent's output to our terminal, through its mode
// tracker.
type modeWriter struct{ a *Agent }

func (w modeWriter) Write(p []byte) (int, error) {
	w.a.modesMu.Lock()
	defer w.a.modesMu.Unlock()
	w.a.modes.Feed(p)
	n, err := w.a.term.Out().Write(p)
	w.a.noteTail(p)
	if len(w.a.notice) > 0 && w.a.atBoundary() {
		w.a.term.Out().Write(w.a.notice)
		w.a.notice = nil
	}
	if w.a.outWake != nil {
		close(w.a.outWake)
		w.a.outWake = nil
	}
	return n, err
}

// NextOutput returns a channel closed at the agent's next output to the
// terminal. A change of the pty's mode (ReadsKeys) wakes nothing, but a
// program that puts its terminal in raw mode draws its screen just after:
// whoever waits for the one looks again at the other.
func (a *Agent) NextOutput() <-chan struct{} {
	a.modesMu.Lock()
	defer a.modesMu.Unlock()
	if a.outWake == nil {
		a.outWake = make(chan struct{})
	}
	return a.outWake
}

func (a *Agent) wait(started time.Time) {
	var err error
	if a.leader == nil {
		err = a.cmd.Wait()
		disown(a.cmd.Process.Pid)
	}
	<-a.leaderDone
	ended := time.Now()
	var ee *exec.ExitError
	switch {
	case a.status != nil:
		a.exit = exitOfStatus(*a.status)
	case a.leader != nil && a.leaderErr != nil:
		a.exit = Exit{Code: 1, Err: a.leaderErr}
	case a.leader != nil:
		// The leader ended without saying (killed): its own end is all
		// there is to tell, as when each agent had a leader of its own.
		<-a.leader.exited
		a.exit = exitOf(a.leader.cmd.ProcessState)
	case err == nil || errors.As(err, &ee):
		a.exit = exitOf(a.cmd.ProcessState)
	default:
		a.exit = Exit{Code: 1, Err: err}
	}
	a.exit.Started, a.exit.Ended = started, ended
	if a.pty != nil {
		a.term.detach(a)
		// The output's tail is still in the pty; keep copying until EIO.
		select {
		case <-a.outDone:
		case <-time.After(DrainTimeout):
		}
		// The close itself runs aside: the kernel's release of a pty
		// waits for its buffer work to finish, which took 16 ms of a
		// 22 ms restart on a loaded machine, and nothing here needs the
		// descriptor gone. Closing wakes a read in the poller at once
		// (before the descriptor is released); a blocking one (where the
		// poller could not take the pty) is not waited for.
		master := a.pty
		guard.Go(func() { master.Close() })
		select {
		case <-a.outDone:
		case <-time.After(100 * time.Millisecond):
		}
		// Whatever the agent left on is switched off before anything else
		// reaches the terminal: the next agent, or our own messages.
		a.modesMu.Lock()
		reset := a.modes.Reset()
		a.modesMu.Unlock()
		if len(reset) > 0 {
			a.term.Out().Write(reset)
		}
	}
	close(a.done)
}

// Identity is the agent process's verified identity.
func (a *Agent) Identity() proc.Identity { return a.id }

// PID is the agent's process id.
func (a *Agent) PID() int { return a.id.PID }

// Done is closed once the process has exited and its output is copied.
func (a *Agent) Done() <-chan struct{} { return a.done }

// Wait waits for Done and returns how the process ended.
func (a *Agent) Wait() Exit {
	<-a.done
	return a.exit
}

// Resize gives the agent's pty our terminal's current size; the kernel
// then sends the agent SIGWINCH.
func (a *Agent) Resize() {
	if a.pty == nil {
		return
	}
	select {
	case <-a.done:
		return
	default:
	}
	if ws := a.term.Size(); ws != nil {
		setSize(a.pty, ws)
	}
}

// signalGroup sends sig to the agent's process group (on a pty the agent
// leads its own).
func (a *Agent) signalGroup(sig syscall.Signal) {
	select {
	case <-a.done:
		return
	default:
	}
	unix.Kill(-a.id.PID, sig)
}

// flushOutput waits, briefly, until what the agent has written is on our
// terminal: nothing left to read in the pty and everything read written.
func (a *Agent) flushOutput() {
	deadline := time.Now().Add(200 * time.Millisecond)
	for time.Now().Before(deadline) {
		if a.copied.idle() && ptyUnread(a.pty) == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// ptyUnread is how many bytes wait to be read from a pty's master.
func ptyUnread(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	rc.Control(func(fd uintptr) { n, _ = unix.IoctlGetInt(int(fd), ioctlUnread) })
	return n
}

// StartFailure is the Exit of a process that could not be started, with a
// shell's code: 126 for a file found but not executable (no permission, no
// format the system can run), 127 for one not found.
func StartFailure(err error) Exit {
	now := time.Now()
	code := 1
	var ee *exec.Error
	var se *startError
	switch {
	case errors.As(err, &se):
		code = se.code
	case errors.As(err, &ee) && leader.StartCode(err) != 126:
		code = 127 // not found on PATH
	default:
		code = leader.StartCode(err)
	}
	return Exit{Code: code, Err: err, Started: now, Ended: now}
}

// typePause is the pause between a typed line and its Enter: Claude Code
// takes text and Enter in one write for a paste
// (docs/design.md#what-we-rely-on-from-the-agent-clis).
const typePause = 300 * time.Millisecond

// Type types a line into the agent's terminal as a person does: the text,
// a pause, Enter. The supervisor uses it to go on after a usage limit
// resets, when nobody is there to type.
func (a *Agent) Type(text string) error { return a.typeLine(text, true) }

// typeLine is Type, for superclaude's own words (ours) or the person's.
func (a *Agent) typeLine(text string, ours bool) error {
	if a.pty == nil {
		return errors.New("the agent has no terminal to type into")
	}
	if err := a.write(a.pty, []byte(text), ours); err != nil {
		return err
	}
	time.Sleep(typePause)
	return a.write(a.pty, []byte("\r"), ours)
}

// write writes p to the agent's terminal through w (its pty, or the
// relay's handle of it) and logs it for Typed: before the write, and
// taken out again if the write fails, so that a keystroke's echo does not
// wait for the log (typedLog.add). The time is read only for a write that
// holds an Enter, the one readTyped dates.
func (a *Agent) write(w io.Writer, p []byte, ours bool) error {
	if len(p) == 0 {
		return nil
	}
	var at time.Time
	if bytes.IndexByte(p, '\r') >= 0 {
		at = time.Now()
	}
	n := a.typed.add(p, at, ours)
	_, err := w.Write(p)
	if err != nil {
		a.typed.undo(n)
	}
	return err
}
