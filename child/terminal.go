package child

import (
	"io"
	"os"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/guard"
)

// Terminal is superclaude's own terminal: the standard input and output a
// person typed superclaude into.
type Terminal struct {
	// in and out are the standard files, for terminal modes and sizes;
	// rin and wout are what the relay reads and writes: the same
	// terminal opened again, in Go's poller (see poll.go), or in and out
	// themselves where that cannot be done.
	in, out   *os.File
	rin, wout io.ReadWriter
	output    io.Writer // see Out

	mu    sync.Mutex
	saved *term.State
	// sane, when the terminal was raw before MakeRaw (leftraw.go), is
	// the mode restored in place of saved.
	sane  *unix.Termios
	agent *Agent // the current agent; nil between agents
	pump  sync.Once
	// held is what was typed while no agent could take it (held.go), for
	// the next agent; heldLost counts what came past maxHeld. passing
	// lets new keys through to the current agent while held waits for
	// it. All three under mu.
	held     []byte
	heldLost int
	passing  bool
	// back is how many bytes at held's front were given back (GiveBack),
	// not typed while no agent ran; under mu.
	back int
	// unready holds what is typed for the current agent, started with
	// Spec.HoldKeys, until it is given it; under mu.
	unready bool
	// inMu orders what reaches an agent: the pump's keys and the held
	// ones it is given.
	inMu sync.Mutex
	// unguard removes the panic-time restore registered by MakeRaw.
	unguard func()

	jobs  sync.Once
	stops chan *Agent // agents that stopped (job control)

	// leaders keeps the session leader between agents (leader.go).
	leaders leaders
}

// NewTerminal returns the terminal on in and out, or nil when either is not
// a terminal; agents then run without a pty.
func NewTerminal(in, out *os.File) *Terminal {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	t := &Terminal{in: in, out: out, rin: in, wout: out, stops: make(chan *Agent, 1)}
	if r := reopenTerminal(in); r != nil {
		t.rin = relayFile(r)
		if sameFile(in, out) {
			t.wout = t.rin
		} else if w := reopenTerminal(out); w != nil {
			t.wout = relayFile(w)
		}
	}
	t.output = t.wout
	if fast, ok := t.wout.(tryWriter); ok {
		t.output = &outputWriter{fast: fast, blocking: out}
	}
	return t
}

// sameFile reports whether a and b are the same terminal.
func sameFile(a, b *os.File) bool {
	ra, err1 := rdevOf(a)
	rb, err2 := rdevOf(b)
	return err1 == nil && err2 == nil && ra == rb
}

// MakeRaw puts the terminal in raw mode, keeping the mode it had for
// Restore. Calling it again while raw does nothing. From then on the
// terminal also does job control (jobcontrol.go): Ctrl-Z stops the agent
// and us with it, with the terminal restored, until `fg`.
func (t *Terminal) MakeRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved != nil {
		return nil
	}
	fd := int(t.in.Fd())
	sane := rawAtStart(fd)
	st, err := term.MakeRaw(fd)
	if err != nil {
		return err
	}
	t.saved = st
	if sane != nil {
		t.sane = sane
	}
	t.unguard = guard.AtPanic(func() { t.Restore() })
	t.jobs.Do(func() { startJobControl(t) })
	return nil
}

// Restore puts back the mode MakeRaw found. It is safe to call more than
// once and from any goroutine: every exit path of a supervisor calls it.
func (t *Terminal) Restore() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved == nil {
		return nil
	}
	err := t.cookLocked()
	t.saved = nil
	if t.unguard != nil {
		t.unguard()
		t.unguard = nil
	}
	return err
}

// cookLocked puts back the mode MakeRaw found, or a sane one where it
// found the terminal raw. t.mu is held and the terminal is raw.
func (t *Terminal) cookLocked() error {
	fd := int(t.in.Fd())
	if t.sane != nil {
		return unix.IoctlSetTermios(fd, ioctlWriteTermios, t.sane)
	}
	return term.Restore(fd, t.saved)
}

// FoundRaw reports whether the terminal was already raw when MakeRaw was
// first called — left so by a program killed before it could restore it,
// a superclaude killed with SIGKILL most likely. Restore then left it in a
// sane mode instead; a caller says so once the terminal is restored.
func (t *Terminal) FoundRaw() bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sane != nil
}

// Size returns the terminal's window size, or nil when it cannot be read.
func (t *Terminal) Size() *pty.Winsize {
	ws, err := pty.GetsizeFull(t.out)
	if err != nil {
		return nil
	}
	return ws
}

// Out is where agent output goes.
func (t *Terminal) Out() io.Writer { return t.output }

// attach makes a receive what is typed from now on, starting the input
// pump on first use. When keys typed before it started are held, or hold
// says, what is typed next is held, until a takes it (held.go).
func (t *Terminal) attach(a *Agent, hold bool) {
	t.mu.Lock()
	t.agent, t.passing, t.unready = a, false, hold
	t.mu.Unlock()
	t.pump.Do(func() { guard.Go(t.copyInput) })
}

// detach stops sending input to a if it is still the current agent: what
// is typed from now on is held for the next one.
func (t *Terminal) detach(a *Agent) {
	t.mu.Lock()
	if t.agent == a {
		t.agent, t.passing, t.unready = nil, false, false
	}
	t.mu.Unlock()
}

func (t *Terminal) current() *Agent {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.agent
}

// copyInput is the one input pump: it reads stdin for the life of the
// program and hands each read to the current agent. Input typed while no
// agent runs (between a kill and the next start) is held for the next
// one (held.go). The goroutine never ends on its own; it does not keep
// the program alive, which exits from main.
func (t *Terminal) copyInput() {
	buf := make([]byte, 32*1024)
	for {
		n, err := t.rin.Read(buf)
		if n > 0 {
			t.input(buf[:n])
		}
		if err != nil {
			return
		}
	}
}
