package child

import (
	"errors"
	"os"
	"os/exec"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/internal/proc"
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
}

// DrainTimeout bounds how long Wait keeps copying output after the process
// has exited, for a descendant that still holds the pty open. The watchdog's
// sweep normally ends such processes well before.
var DrainTimeout = 2 * time.Second

// Agent is one running agent process.
type Agent struct {
	cmd  *exec.Cmd
	id   proc.Identity
	pty  *os.File // nil without a terminal
	term *Terminal

	outDone chan struct{}
	done    chan struct{}
	exit    Exit
}

// Start starts spec. With a terminal the agent runs on a new pty sized like
// it, as the leader of its own session with the pty as its controlling
// terminal; without one it inherits our standard files.
func Start(spec Spec, t *Terminal) (*Agent, error) {
	path, err := exec.LookPath(spec.Path)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env = spec.Env
	cmd.Dir = spec.Dir
	a := &Agent{cmd: cmd, term: t, outDone: make(chan struct{}), done: make(chan struct{})}
	started := time.Now()
	if t != nil {
		// pty.StartWithSize sets Setsid and Setctty: the agent leads a new
		// session whose controlling terminal is the pty, as a shell would
		// start it.
		a.pty, err = pty.StartWithSize(cmd, t.Size())
		if err != nil {
			return nil, err
		}
		guard.Go(a.copyOutput)
		t.attach(a.pty)
	} else {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		close(a.outDone)
	}
	// The child cannot be reaped before Wait, so its PID still names it.
	a.id, _ = proc.Of(cmd.Process.Pid)
	if a.id.IsZero() {
		a.id = proc.Identity{PID: cmd.Process.Pid}
	}
	guard.Go(func() { a.wait(started) })
	return a, nil
}

// copyOutput copies the pty to our terminal until the pty reports EIO (the
// last holder of the terminal has gone) or is closed.
func (a *Agent) copyOutput() {
	defer close(a.outDone)
	copyDecoupled(a.term.Out(), a.pty)
}

func (a *Agent) wait(started time.Time) {
	err := a.cmd.Wait()
	ended := time.Now()
	var ee *exec.ExitError
	switch {
	case err == nil || errors.As(err, &ee):
		a.exit = exitOf(a.cmd.ProcessState)
	default:
		a.exit = Exit{Code: 1, Err: err}
	}
	a.exit.Started, a.exit.Ended = started, ended
	if a.pty != nil {
		a.term.detach(a.pty)
		// The output's tail is still in the pty; keep copying until EIO.
		select {
		case <-a.outDone:
		case <-time.After(DrainTimeout):
		}
		a.pty.Close()
	}
	close(a.done)
}

// Identity is the agent process's verified identity.
func (a *Agent) Identity() proc.Identity { return a.id }

// PID is the agent's process id.
func (a *Agent) PID() int { return a.cmd.Process.Pid }

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
		pty.Setsize(a.pty, ws)
	}
}

// StartFailure is the Exit of a process that could not be started.
func StartFailure(err error) Exit {
	now := time.Now()
	code := 1
	var ee *exec.Error
	if errors.As(err, &ee) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		code = 127
	}
	return Exit{Code: code, Err: err, Started: now, Ended: now}
}

// typePause is the pause between a typed line and its Enter: Claude Code
// takes text and Enter in one write for a paste (CLAUDE-CODE-FACTS.md).
const typePause = 300 * time.Millisecond

// Type types a line into the agent's terminal as a person does: the text,
// a pause, Enter. The supervisor uses it to go on after a usage limit
// resets, when nobody is there to type.
func (a *Agent) Type(text string) error {
	if a.pty == nil {
		return errors.New("the agent has no terminal to type into")
	}
	if _, err := a.pty.Write([]byte(text)); err != nil {
		return err
	}
	time.Sleep(typePause)
	_, err := a.pty.Write([]byte("\r"))
	return err
}
