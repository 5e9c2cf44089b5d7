package supervise_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/supervise"
)

// A program supervising an agent CLI that is not Claude Code. The stand-in
// CLI crashes on its first run; the tree counts the crash against the
// intensity limit, restarts it, and returns the CLI's own exit code when it
// finally exits by itself.
func Example_restart() {
	dir, _ := os.MkdirTemp("", "supervise-example-")
	defer os.RemoveAll(dir)
	cli := `if [ -e crashed ]; then echo "second run: done"; exit 0; fi
touch crashed; echo "first run: crashing"; exit 3`

	res := supervise.Run(context.Background(), supervise.Config{
		Profile:    supervise.Generic,
		Command:    "sh",
		Args:       []string{"-c", cli},
		Dir:        dir,
		CrashDelay: 10 * time.Millisecond,
	})
	fmt.Println("exit code:", res.ExitCode)
	// Output:
	// first run: crashing
	// second run: done
	// exit code: 0
}

// A profile for a CLI of one's own: how it resumes a conversation and how
// it takes a first prompt. Args shows what each kind of start runs.
func ExampleProfile() {
	mycli := supervise.Profile{
		Name:    "mycli",
		Command: "mycli",
		Resume: func(args []string, id string) []string {
			return append(args, "--conversation", id)
		},
		Prompt: func(args []string, prompt string) []string {
			return append(args, "--ask", prompt)
		},
		ContextUsage: supervise.ContextNone, // no overflow restart
	}
	user := []string{"--verbose"}
	inv := supervise.Invocation{Restart: user}
	fmt.Println(mycli.Args(user, inv, supervise.Plan{Action: supervise.Fresh}, true))
	fmt.Println(mycli.Args(user, inv, supervise.Plan{Action: supervise.Resume, SessionID: "c42"}, false))
	fmt.Println(mycli.Args(user, inv, supervise.Plan{Action: supervise.Fresh, Prompt: "continue"}, false))
	// Output:
	// [--verbose]
	// [--verbose --conversation c42]
	// [--verbose --ask continue]
}

// A program's handle on a running supervisor: a CLI of its own that keeps
// its conversation id in a file, a profile that learns the id from there
// and resumes it with --resume, a crash, a restart, and a stop.
func ExampleStart() {
	dir, _ := os.MkdirTemp("", "supervise-example-")
	defer os.RemoveAll(dir)
	// The stand-in CLI: a fresh start makes conversation conv-42, a
	// resume carries on the one it is given; then it works until stopped.
	cli := `if [ "$1" = --resume ]; then echo "resumed $2" >> log; else echo conv-42 > conv; echo new >> log; fi
exec sleep 60`
	mycli := supervise.Profile{
		Name: "mycli",
		Resume: func(args []string, id string) []string {
			return append(args, "--resume", id)
		},
		Conversation: func(a supervise.Running) (id, transcript string, err error) {
			b, err := os.ReadFile(filepath.Join(a.Dir, "conv"))
			if os.IsNotExist(err) {
				return "", "", nil // none yet
			}
			return strings.TrimSpace(string(b)), "", err
		},
	}
	s, err := supervise.Start(context.Background(), supervise.Config{
		Profile: mycli, Command: "sh", Args: []string{"-c", cli, "sh"}, Dir: dir,
		CrashDelay: 10 * time.Millisecond,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	waitFor := func(cond func(supervise.Status) bool) supervise.Status {
		for {
			if st := s.Status(); cond(st) {
				return st
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	st := waitFor(func(st supervise.Status) bool { return st.Conversation != "" })
	fmt.Println("conversation:", st.Conversation)

	// A crash: the agent is killed from outside.
	syscall.Kill(st.AgentPID, syscall.SIGKILL)
	st = waitFor(func(st supervise.Status) bool { return st.Starts == 2 && st.AgentPID != 0 })
	// A restart asked for by the program, at once.
	s.Restart("the program asked", true)
	waitFor(func(st supervise.Status) bool { return st.Starts == 3 && st.AgentPID != 0 })
	// Stopped once the third agent has said what it does: a stop at once
	// could end it before it writes.
	for i := 0; i < 500; i++ {
		if b, _ := os.ReadFile(filepath.Join(dir, "log")); strings.Count(string(b), "\n") >= 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Stop(true)
	res := s.Wait()
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	fmt.Print(string(log))
	fmt.Println("exit code:", res.ExitCode)
	// Output:
	// conversation: conv-42
	// new
	// resumed conv-42
	// resumed conv-42
	// exit code: 143
}
