// Command gofloor is the Go floor of a callback: a static Go program that
// reads its standard input and prints one line. Nothing written in Go can
// answer Claude Code's status line or a hook for less; the benchmark suite
// times superclaude's callbacks against it.
package main

import (
	"io"
	"os"
	"strconv"
)

func main() {
	b, _ := io.ReadAll(os.Stdin)
	os.Stdout.WriteString("floor read " + strconv.Itoa(len(b)) + " bytes\n")
}
