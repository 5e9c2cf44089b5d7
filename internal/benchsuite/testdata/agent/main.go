// Command agent is the benchmark suite's agent: it records when it
// started (and superclaude's variables, which the suite's callbacks need)
// and when SIGTERM ended it, in $BENCH_AGENT_LOG, and otherwise does
// nothing at all: an idle agent. It exits 143 on SIGTERM, as Claude Code
// does, and ignores its arguments.
package main

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func record(line string) {
	f, err := os.OpenFile(os.Getenv("BENCH_AGENT_LOG"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.WriteString(line + "\n")
	f.Close()
}

func main() {
	now := time.Now().UnixNano()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SUPERCLAUDE_") || strings.HasPrefix(kv, "CLAUDE_SUPERVISOR_PID=") {
			env = append(env, kv)
		}
	}
	record("start " + strconv.FormatInt(now, 10) + " " + strconv.Itoa(os.Getpid()) + " " + strings.Join(env, "\x1f"))
	sig := <-sigs
	record("exit " + strconv.FormatInt(time.Now().UnixNano(), 10) + " " + strconv.Itoa(os.Getpid()))
	os.Exit(128 + int(sig.(syscall.Signal)))
}
