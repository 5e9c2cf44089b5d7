// Command gorelay is the Go floor of the relay benchmarks
// (cmd/superclaude/relay_bench_test.go): the least a Go program does to
// put an agent on a pty of its own, as script(1) does in C. It runs
// `sh -c SCRIPT` on a new pty, makes its own terminal raw, and copies
// both ways — the Go runtime's poller, two goroutines and io.Copy — until
// the agent ends. What superclaude spends over it is superclaude's own;
// what it spends over script(1) is the floor a Go relay stands on.
package main

import (
	"io"
	"os"
	"os/exec"

	"github.com/creack/pty"
	"golang.org/x/term"
)

func main() {
	cmd := exec.Command("sh", "-c", os.Args[1])
	size, _ := pty.GetsizeFull(os.Stdin)
	ptmx, err := pty.StartWithSize(cmd, size)
	if err != nil {
		os.Exit(127)
	}
	if old, err := term.MakeRaw(0); err == nil {
		defer term.Restore(0, old)
	}
	go io.Copy(ptmx, os.Stdin)
	io.Copy(os.Stdout, ptmx) // ends with the agent: EIO once the pty's last user is gone
	cmd.Wait()
}
