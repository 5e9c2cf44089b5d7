package child

import (
	"io"
	"os"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/guard"
)

// Terminal is superclaude's own terminal: the standard input and output a
// person typed superclaude into.
type Terminal struct {
	in, out *os.File

	mu     sync.Mutex
	saved  *term.State
	target io.Writer // the current agent's pty; nil between agents
	pump   sync.Once
	// unguard removes the panic-time restore registered by MakeRaw.
	unguard func()
}

// NewTerminal returns the terminal on in and out, or nil when either is not
// a terminal; agents then run without a pty.
func NewTerminal(in, out *os.File) *Terminal {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	return &Terminal{in: in, out: out}
}

// MakeRaw puts the terminal in raw mode, keeping the mode it had for
// Restore. Calling it again while raw does nothing.
func (t *Terminal) MakeRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved != nil {
		return nil
	}
	st, err := term.MakeRaw(int(t.in.Fd()))
	if err != nil {
		return err
	}
	t.saved = st
	t.unguard = guard.AtPanic(func() { t.Restore() })
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
	err := term.Restore(int(t.in.Fd()), t.saved)
	t.saved = nil
	if t.unguard != nil {
		t.unguard()
		t.unguard = nil
	}
	return err
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
func (t *Terminal) Out() io.Writer { return t.out }

// attach makes w receive what is typed from now on, starting the input
// pump on first use.
func (t *Terminal) attach(w io.Writer) {
	t.mu.Lock()
	t.target = w
	t.mu.Unlock()
	t.pump.Do(func() { guard.Go(t.copyInput) })
}

// detach stops sending input to w if it is still the target.
func (t *Terminal) detach(w io.Writer) {
	t.mu.Lock()
	if t.target == w {
		t.target = nil
	}
	t.mu.Unlock()
}

// copyInput is the one input pump: it reads stdin for the life of the
// program and hands each read to the current agent. Input typed while no
// agent runs (between a kill and the next start) is dropped. The goroutine
// never ends on its own; it does not keep the program alive, which exits
// from main.
func (t *Terminal) copyInput() {
	buf := make([]byte, 32*1024)
	for {
		n, err := t.in.Read(buf)
		if n > 0 {
			t.mu.Lock()
			w := t.target
			t.mu.Unlock()
			if w != nil {
				w.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}
