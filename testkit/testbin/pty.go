package testbin

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// PTY is a program running on a terminal the test holds, as a person would
// run it: the program leads its own session with the pty as its
// controlling terminal.
type PTY struct {
	Cmd    *exec.Cmd
	Master *os.File
	// Slave stays open in the test so that the terminal outlives the
	// program and its mode can be read after it exits.
	Slave *os.File

	mu      sync.Mutex
	buf     bytes.Buffer
	done    chan struct{}
	err     error
	drained sync.Once
}

// StartPTY starts cmd on a new 24x80 pty.
func StartPTY(t testing.TB, cmd *exec.Cmd) *PTY {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &PTY{Cmd: cmd, Master: master, Slave: slave, done: make(chan struct{})}
	go func() {
		b := make([]byte, 32*1024)
		for {
			n, err := master.Read(b)
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		// A program still running at the end of a (failed) test gets
		// SIGTERM and time to end its children before SIGKILL, so that
		// nothing writes into directories the test is removing.
		select {
		case <-p.done:
		default:
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-p.done
			}
		}
		master.Close()
		slave.Close()
	})
	return p
}

// Output returns everything the program printed so far.
func (p *PTY) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

// Expect waits until the output contains want, counting from offset from
// (a value Len returned); it returns the offset just past the match.
func (p *PTY) Expect(t testing.TB, from int, want string, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out := p.Output()
		if from > len(out) {
			from = len(out)
		}
		if i := strings.Index(out[from:], want); i >= 0 {
			return from + i + len(want)
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %q; output:\n%s", timeout, want, tail(out, 3000))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Len is the length of the output so far.
func (p *PTY) Len() int { return len(p.Output()) }

// Type writes text and then Enter, the way a person types a line.
func (p *PTY) Type(text string) {
	p.Master.Write([]byte(text + "\r"))
}

// Wait waits for the program to exit and returns its exit code (128+n for
// signal n).
func (p *PTY) Wait(t testing.TB, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(timeout):
		t.Fatalf("program did not exit within %s; output:\n%s", timeout, tail(p.Output(), 3000))
	}
	p.drained.Do(p.drain)
	ws := p.Cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// drain waits until everything the program wrote before it exited has been
// read from the master, so that Output after Wait holds all of it. The
// program's exit says nothing of that: the kernel moves a pty's output to
// the master side asynchronously (a work queue), and the reader goroutine
// runs when it is scheduled, so on a loaded machine a line printed just
// before exit was missing from Output (TestPrintRunStopsWithItsAgent
// failed 1 run in 4 under load). A marker written to the slave after the
// exit travels behind the program's output, in order; once the reader has
// seen it, it has seen all that came before. The marker is then cut out.
// Bounded: a terminal whose output is suspended (^S) never passes it on.
func (p *PTY) drain() {
	marker := "\x00testbin-drained-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "\x00"
	go p.Slave.Write([]byte(marker))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		s := p.buf.String()
		if i := strings.Index(s, marker); i >= 0 {
			p.buf.Reset()
			p.buf.WriteString(s[:i] + s[i+len(marker):])
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

// Done is closed when the program has exited.
func (p *PTY) Done() <-chan struct{} { return p.done }

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
