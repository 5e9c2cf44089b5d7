// Command gosup is the floor of a supervisor: it runs its arguments as a
// child and, on SIGUSR1, ends the child with SIGTERM, waits for it and
// starts it again; SIGTERM, SIGINT or SIGHUP end the child and gosup; a
// child that exits on its own ends gosup with its code. The benchmark
// suite times superclaude's restarts, idle wakeups and memory against it.
package main

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	for {
		cmd := exec.Command(os.Args[1], os.Args[2:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			os.Exit(127)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
			os.Exit(cmd.ProcessState.ExitCode())
		case sig := <-sigs:
			cmd.Process.Signal(syscall.SIGTERM)
			<-done
			if sig != syscall.SIGUSR1 {
				os.Exit(0)
			}
		}
	}
}
