package child

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/superclaude/superclaude/testkit/reexec"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// The test binary re-executes itself as the agent (the role "child"); the
// role's argument says how to behave.
func TestMain(m *testing.M) { reexec.Main(m, reexec.Roles{"child": helper}) }

func helper(mode string) {
	switch {
	case mode == "supervisor":
		supervisorHelper()
	case strings.HasPrefix(mode, "exit="):
		code, _ := strconv.Atoi(strings.TrimPrefix(mode, "exit="))
		os.Exit(code)
	case strings.HasPrefix(mode, "signal="):
		n, _ := strconv.Atoi(strings.TrimPrefix(mode, "signal="))
		signal.Reset()
		syscall.Kill(os.Getpid(), syscall.Signal(n))
		time.Sleep(time.Hour)
	case strings.HasPrefix(mode, "flood="):
		// Prints n bytes and a marker, then exits at once: the tail must
		// not be lost.
		n, _ := strconv.Atoi(strings.TrimPrefix(mode, "flood="))
		line := bytes.Repeat([]byte("x"), 99)
		line = append(line, '\n')
		w := bufio.NewWriter(os.Stdout)
		for i := 0; i < n/100; i++ {
			w.Write(line)
		}
		w.WriteString("THE-END\n")
		w.Flush()
		os.Exit(3)
	case mode == "rewrite":
		// Output for upperBetween, in writes that split what it rewrites,
		// keep back output that no more follows for a while, and end
		// while something is kept back.
		for _, w := range []string{"a<b", "c>d\r\n", "e<f", "LATER\r\n", "g<h"} {
			os.Stdout.WriteString(w)
			if w == "g<h" {
				break
			}
			pause := 30 * time.Millisecond
			if w == "e<f" {
				pause = 500 * time.Millisecond
			}
			time.Sleep(pause)
		}
		os.Exit(0)
	case mode == "modes":
		// A full-screen program's modes, then killed before it can undo
		// them.
		fmt.Print(leftOnModes + "MODES ON\r\n")
		time.Sleep(time.Hour)
	case mode == "rawecho":
		// A full-screen program: it starts, puts its terminal in raw mode
		// half a second later, and reports every read.
		time.Sleep(500 * time.Millisecond)
		old, _ := term.MakeRaw(0)
		fmt.Print("READY\r\n")
		reportReads(old, time.Time{})
	case mode == "lateready":
		// A full-screen program slow to be ready, as claude started
		// again is: raw at once, it drops what it reads for the first
		// 700 ms, and says so, then reports every read.
		old, _ := term.MakeRaw(0)
		fmt.Print("RAW\r\n")
		ready := time.Now().Add(700 * time.Millisecond)
		go func() {
			time.Sleep(time.Until(ready))
			fmt.Print("READY\r\n")
		}()
		reportReads(old, ready)
	case mode == "echo":
		// Reports whether it has a controlling terminal, then echoes lines
		// and reports window size changes.
		sid, _ := unix.Getsid(0)
		fg, _ := unix.IoctlGetInt(0, unix.TIOCGPGRP)
		ppgid, _ := unix.Getpgid(os.Getppid())
		// Job control: its group leads the foreground of the pty, and its
		// parent is in its session but another group (not orphaned).
		// And its terminal blocks, as a shell's does: a program that reads
		// it without handling EAGAIN (cat, a Python REPL) would end.
		fl, _ := unix.FcntlInt(0, unix.F_GETFL, 0)
		fmt.Printf("session-leader=%v foreground=%v parent-in-session=%v parent-group=%v tty=%v nonblocking=%v\r\n",
			sid == os.Getpid(), fg == unix.Getpgrp() && unix.Getpgrp() == os.Getpid(),
			sid == os.Getppid(), ppgid != unix.Getpgrp(), term.IsTerminal(0), fl&unix.O_NONBLOCK != 0)
		winch := make(chan os.Signal, 1)
		signal.Notify(winch, syscall.SIGWINCH)
		go func() {
			for range winch {
				ws, _ := pty.GetsizeFull(os.Stdin)
				fmt.Printf("size %dx%d\r\n", ws.Rows, ws.Cols)
			}
		}()
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if sc.Text() == "quit" {
				os.Exit(0)
			}
			fmt.Printf("got:%s\r\n", sc.Text())
		}
	}
}

// reportReads reports every read of a raw helper's terminal — as
// dropped before ready — until one holds "quit", then restores old and
// exits.
func reportReads(old *term.State, ready time.Time) {
	b := make([]byte, 1024)
	for {
		n, err := os.Stdin.Read(b)
		if err != nil {
			os.Exit(1)
		}
		if time.Now().Before(ready) {
			fmt.Printf("dropped:%q\r\n", b[:n])
			continue
		}
		fmt.Printf("got:%q\r\n", b[:n])
		if bytes.Contains(b[:n], []byte("quit")) {
			term.Restore(0, old)
			os.Exit(0)
		}
	}
}

func spec(mode string) Spec {
	return Spec{Path: os.Args[0], Args: reexec.Args(), Env: append(os.Environ(), reexec.Env("child", mode))}
}

// userTerminal is the terminal a person would type into: the test holds the
// master side and the Terminal gets the slave.
func userTerminal(t *testing.T) (*Terminal, *os.File) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); slave.Close() })
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	tt := NewTerminal(slave, slave)
	if tt == nil {
		t.Fatal("a pty slave is not a terminal?")
	}
	t.Cleanup(tt.Close)
	return tt, master
}

// startEcho starts the echoing agent on tt and waits, reading r (the
// person's side), until it says it has its terminal.
func startEcho(t *testing.T, tt *Terminal, r io.Reader) *Agent {
	t.Helper()
	a, err := Start(spec("echo"), tt)
	if err != nil {
		t.Fatal(err)
	}
	readUntil(t, r, "tty=true")
	return a
}

// readUntil reads r until it has seen want or the deadline passes.
func readUntil(t *testing.T, r io.Reader, want string) string {
	t.Helper()
	got := make(chan string, 1)
	var buf bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			buf.Write(b[:n])
			if strings.Contains(buf.String(), want) || err != nil {
				got <- buf.String()
				return
			}
		}
	}()
	select {
	case s := <-got:
		if !strings.Contains(s, want) {
			t.Fatalf("never saw %q in %q", want, s)
		}
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %q", want)
		return ""
	}
}

func TestExitIsReportedExactly(t *testing.T) {
	for _, tc := range []struct {
		mode string
		code int
		sig  syscall.Signal
	}{
		{"exit=0", 0, 0},
		{"exit=1", 1, 0},
		{"exit=143", 143, 0}, // what claude exits with on SIGTERM
		{"signal=15", 143, syscall.SIGTERM},
		{"signal=9", 137, syscall.SIGKILL},
		{"signal=1", 129, syscall.SIGHUP},
	} {
		for _, withPty := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/pty=%v", tc.mode, withPty), func(t *testing.T) {
				var tt *Terminal
				if withPty {
					var master *os.File
					tt, master = userTerminal(t)
					go io.Copy(io.Discard, master)
				}
				a, err := Start(spec(tc.mode), tt)
				if err != nil {
					t.Fatal(err)
				}
				e := a.Wait()
				if e.Code != tc.code || e.Signal != tc.sig || e.Err != nil {
					t.Fatalf("exit = %+v (%s), want code %d signal %v", e, e, tc.code, tc.sig)
				}
			})
		}
	}
}

func TestStartFailureIsReported(t *testing.T) {
	_, err := Start(Spec{Path: "/nonexistent/agent"}, nil)
	if err == nil {
		t.Fatal("started a missing program")
	}
	if e := StartFailure(err); e.Code != 127 {
		t.Fatalf("StartFailure = %+v", e)
	}
}

func TestOutputTailIsNotLostWhenTheAgentExits(t *testing.T) {
	tt, master := userTerminal(t)
	const n = 1 << 20
	a, err := Start(spec("flood="+strconv.Itoa(n)), tt)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan []byte)
	go func() {
		var all []byte
		b := make([]byte, 64*1024)
		for {
			k, err := master.Read(b)
			all = append(all, b[:k]...)
			if bytes.Contains(all, []byte("THE-END")) || err != nil {
				out <- all
				return
			}
		}
	}()
	e := a.Wait()
	if e.Code != 3 {
		t.Fatalf("exit %+v", e)
	}
	select {
	case all := <-out:
		if !bytes.Contains(all, []byte("THE-END")) || bytes.Count(all, []byte("x")) < n*99/100-100 {
			t.Fatalf("got %d bytes, tail %q", len(all), all[max(0, len(all)-40):])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("output tail never arrived")
	}
}

func TestAgentGetsAPtyInputAndResizes(t *testing.T) {
	tt, master := userTerminal(t)
	a, err := Start(spec("echo"), tt)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(master)
	readUntil(t, r, "session-leader=false foreground=true parent-in-session=true parent-group=true tty=true nonblocking=false")
	master.Write([]byte("hello\r"))
	readUntil(t, r, "got:hello")

	pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 123})
	a.Resize()
	readUntil(t, r, "size 40x123")

	master.Write([]byte("quit\r"))
	if e := a.Wait(); e.Code != 0 {
		t.Fatalf("exit %+v", e)
	}
}

func TestInputGoesToTheCurrentAgentOnly(t *testing.T) {
	tt, master := userTerminal(t)
	r := bufio.NewReader(master)
	first := startEcho(t, tt, r)
	master.Write([]byte("quit\r"))
	first.Wait()

	second := startEcho(t, tt, r)
	master.Write([]byte("again\r"))
	readUntil(t, r, "got:again")
	master.Write([]byte("quit\r"))
	second.Wait()
}

func TestRawModeIsRestored(t *testing.T) {
	tt, _ := userTerminal(t)
	fd := int(tt.in.Fd())
	before, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if before.Lflag&unix.ICANON == 0 {
		t.Fatal("terminal not cooked to begin with")
	}
	if err := tt.MakeRaw(); err != nil {
		t.Fatal(err)
	}
	raw, _ := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if raw.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Fatal("MakeRaw left the terminal cooked")
	}
	tt.Restore()
	tt.Restore() // idempotent
	after, _ := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Fatalf("termios not restored: %+v vs %+v", after, before)
	}
	if tt.FoundRaw() {
		t.Fatal("FoundRaw for a terminal that was cooked")
	}
}

// TestATerminalFoundRawIsLeftCooked: a terminal already raw when
// superclaude starts (a superclaude before it was killed with SIGKILL) is
// not "restored" to raw at the end but to a sane cooked mode, and
// FoundRaw says so; a cooked one is restored exactly, and FoundRaw is
// false (TestRawModeIsRestored).
func TestATerminalFoundRawIsLeftCooked(t *testing.T) {
	tt, _ := userTerminal(t)
	fd := int(tt.in.Fd())
	cooked, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.MakeRaw(fd); err != nil { // the killed superclaude's
		t.Fatal(err)
	}
	if err := tt.MakeRaw(); err != nil {
		t.Fatal(err)
	}
	if tt.Restore(); !tt.FoundRaw() {
		t.Fatal("FoundRaw is false for a terminal raw at start")
	}
	after, _ := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if isRaw(after) || after.Lflag&unix.ISIG == 0 || after.Iflag&unix.ICRNL == 0 || after.Oflag&unix.OPOST == 0 {
		t.Fatalf("the terminal was left raw: %+v", after)
	}
	// The pty's default, but for BRKINT, which `stty sane` sets too.
	if after.Lflag != cooked.Lflag || after.Iflag&^unix.BRKINT != cooked.Iflag&^unix.BRKINT ||
		after.Oflag != cooked.Oflag || after.Cc != cooked.Cc {
		t.Fatalf("not the pty's default cooked mode:\n%+v\nwant\n%+v", after, cooked)
	}
}

const leftOnModes = "\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?1004h\x1b[?2004h" +
	"\x1b[>1u\x1b[>4;2m\x1b=\x1b[?1h"

// TestAKilledAgentsModesAreSwitchedOff: on a real pty, an agent switches on
// the alternate screen, a hidden cursor, mouse reporting, focus reports,
// bracketed paste, a kitty keyboard push and modifyOtherKeys, and is
// killed. Before Wait returns, exactly what undoes them follows its output,
// keyboard pop before leaving the alternate screen.
func TestAKilledAgentsModesAreSwitchedOff(t *testing.T) {
	tt, master := userTerminal(t)
	out := make(chan string, 1)
	var buf bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			buf.Write(b[:n])
			if err != nil || bytes.Contains(buf.Bytes(), []byte("\x1b[?1h")) && bytes.Contains(buf.Bytes(), []byte("\x1b[?1l")) {
				out <- buf.String()
				return
			}
		}
	}()
	a, err := Start(spec("modes"), tt)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for ptyUnread(a.pty) > 0 || !a.copied.idle() || a.copied.read.Load() < int64(len(leftOnModes)) {
		if time.Now().After(deadline) {
			t.Fatal("the agent's modes never went through the relay")
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(a.PID(), syscall.SIGKILL)
	if e := a.Wait(); e.Signal != syscall.SIGKILL {
		t.Fatalf("exit %+v", e)
	}
	var got string
	select {
	case got = <-out:
	case <-time.After(10 * time.Second):
		t.Fatalf("no reset after the agent died; terminal got %q", buf.String())
	}
	_, after, ok := strings.Cut(got, "MODES ON")
	if !ok {
		t.Fatalf("output %q", got)
	}
	after = strings.TrimLeft(after, "\r\n")
	want := "\x1b[<1u\x1b[?1049l\x1b[>4m\x1b>\x1b[?2004l\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?25h\x1b[?1l"
	if after != want {
		t.Fatalf("after the agent died the terminal got %q, want %q", after, want)
	}
}

// upperBetween is a RewriteFunc for the tests: text between < and >
// is upper-cased; from an unclosed < on, output is kept back.
func upperBetween(p []byte) ([]byte, int) {
	out := bytes.Clone(p)
	for i := 0; i < len(out); i++ {
		if out[i] != '<' {
			continue
		}
		j := bytes.IndexByte(out[i:], '>')
		if j < 0 {
			return out[:i], len(out) - i
		}
		copy(out[i:i+j], bytes.ToUpper(out[i:i+j]))
		i += j
	}
	return out, 0
}

// TestRewriteSeesOutputAcrossReads: a rewrite that needs more output than
// one read brings gets it; output kept back is written as it is when no
// more comes within rewriteHold, and when the agent's output ends.
func TestRewriteSeesOutputAcrossReads(t *testing.T) {
	tt, master := userTerminal(t)
	sp := spec("rewrite")
	sp.Rewrite = upperBetween
	a, err := Start(sp, tt)
	if err != nil {
		t.Fatal(err)
	}
	got := readUntil(t, master, "e<f")
	if !strings.Contains(got, "a<BC>d") {
		t.Fatalf("split rewrite not done: %q", got)
	}
	if strings.Contains(got, "LATER") {
		t.Fatalf("kept-back output came only with the next output: %q", got)
	}
	if e := a.Wait(); e.Code != 0 {
		t.Fatalf("exit %+v", e)
	}
	// What was kept back at the end is out when Wait returns, before any
	// message of the supervisor's: read with a deadline shorter than the
	// hold.
	var rest []byte
	chunks := make(chan []byte)
	go func() {
		for {
			b := make([]byte, 4096)
			n, err := master.Read(b)
			if err != nil {
				return
			}
			chunks <- b[:n]
		}
	}()
	for deadline := time.After(rewriteHold / 2); !strings.HasSuffix(string(rest), "g<h"); {
		select {
		case c := <-chunks:
			rest = append(rest, c...)
			continue
		case <-deadline:
		}
		break
	}
	if !strings.Contains(string(rest), "LATER") || !strings.HasSuffix(string(rest), "g<h") {
		t.Fatalf("the output's end after Wait is %q, want LATER and g<h", rest)
	}
}

// A file that is there but cannot be run exits 126, as in a shell; one
// that is not there, 127.
func TestStartFailureCodesAreAShells(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("\x00\x01\x02 not a program"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		code int
	}{{plain, 126}, {garbage, 126}, {filepath.Join(dir, "missing"), 127}} {
		_, err := Start(Spec{Path: tc.path}, nil)
		if err == nil {
			t.Fatalf("started %s", tc.path)
		}
		if e := StartFailure(err); e.Code != tc.code {
			t.Errorf("StartFailure(%v).Code = %d, want %d", err, e.Code, tc.code)
		}
	}
}
