package supervise_test

import (
	"context"
	"fmt"
	"os"
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
