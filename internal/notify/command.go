package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// CommandSink runs the person's notifier command with the notification
// as JSON on stdin, never through a shell. One still running at the
// deadline is killed, with everything it started.
type CommandSink struct{ Argv []string }

func (c CommandSink) Name() string { return "command " + c.Argv[0] }

func (c CommandSink) Send(ctx context.Context, n Notification) error {
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Stdin = bytes.NewReader(b)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return fmt.Errorf("still running after the timeout: stopped (%w)", ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("%w: %.200s", err, out.String())
	}
	return nil
}
