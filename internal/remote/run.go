package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// OpRun runs one of superclaude's own commands on the host, for a command
// of the asking side that found its session there (+why, +history,
// +session restart): the arguments travel as an argument vector — no
// shell on either side — and what the command prints comes back as it
// comes, then its exit code.
const OpRun = "run"

// RunArgs are OpRun's arguments: the command line, without the program.
type RunArgs struct {
	Args []string `json:"args"`
}

// RunChunk is a piece of what the command prints, or its exit code.
type RunChunk struct {
	Out  string `json:"out,omitempty"`
	Err  string `json:"err,omitempty"`
	Exit *int   `json:"exit,omitempty"`
}

// RunHandler serves OpRun by running self with the argument vector
// allowed makes of the request's (an error refuses it: a host runs for
// another only the commands it chose).
func RunHandler(self string, allowed func(args []string) ([]string, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
		var a RunArgs
		if err := Args(raw, &a); err != nil {
			return err
		}
		argv, err := allowed(a.Args)
		if err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, self, argv...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		errOut, err := cmd.StderrPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		var wg sync.WaitGroup
		for _, p := range []struct {
			r     io.Reader
			chunk func(string) RunChunk
		}{{out, func(s string) RunChunk { return RunChunk{Out: s} }}, {errOut, func(s string) RunChunk { return RunChunk{Err: s} }}} {
			wg.Go(func() {
				buf := make([]byte, 32<<10)
				for {
					k, err := p.r.Read(buf)
					if k > 0 {
						emit(p.chunk(string(buf[:k])))
					}
					if err != nil {
						return
					}
				}
			})
		}
		wg.Wait()
		err = cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code < 0 && err != nil {
			return err
		}
		return emit(RunChunk{Exit: &code})
	}
}

// Run runs args on the host (OpRun), copying what the command prints to
// stdout and stderr, and returns its exit code.
func (c *Client) Run(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	code := -1
	err := c.Stream(ctx, OpRun, RunArgs{Args: args}, func(raw json.RawMessage) error {
		var ch RunChunk
		if err := json.Unmarshal(raw, &ch); err != nil {
			return err
		}
		io.WriteString(stdout, ch.Out)
		io.WriteString(stderr, ch.Err)
		if ch.Exit != nil {
			code = *ch.Exit
		}
		return nil
	})
	if err == nil && code < 0 {
		err = fmt.Errorf("%s: the command ended without an exit code", c.Host)
	}
	return code, err
}
