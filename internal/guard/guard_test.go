package guard_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// The helper puts its terminal in raw mode and panics in a goroutine, as a
// bug in superclaude's I/O copying would.
func TestMain(m *testing.M) {
	reexec.Main(m, reexec.Roles{"panic": func(string) {
		t := child.NewTerminal(os.Stdin, os.Stdout)
		if t == nil || t.MakeRaw() != nil {
			os.Exit(5)
		}
		os.Stdout.WriteString("RAW\r\n")
		guard.Go(func() { panic("boom in a goroutine") })
		time.Sleep(10 * time.Second)
		os.Exit(6)
	}})
}

func TestPanicInAGoroutineRestoresTheTerminal(t *testing.T) {
	cmd := reexec.Command("panic", "", nil)
	p := testbin.StartPTY(t, cmd)
	p.Expect(t, 0, "RAW", 10*time.Second)
	if code := p.Wait(t, 10*time.Second); code != 2 {
		t.Fatalf("exit %d, want 2 (a panic)\n%s", code, p.Output())
	}
	if !strings.Contains(p.Output(), "panic: boom in a goroutine") {
		t.Fatalf("panic not reported:\n%s", p.Output())
	}
	tio, err := unix.IoctlGetTermios(int(p.Slave.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ICANON == 0 || tio.Lflag&unix.ECHO == 0 {
		t.Fatalf("terminal left raw after the panic: lflag %#x", tio.Lflag)
	}
}
