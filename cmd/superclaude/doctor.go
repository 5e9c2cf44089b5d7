package main

import (
	"bytes"
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/doctor"
)

// newDoctorCmd is +doctor; root is for the completion it checks.
func newDoctorCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "+doctor",
		Short: "check the install: which superclaude and claude your PATH finds, completion, tmux, superclaude's directories, notifications; says what to fix",
		Long: `Check the install as your shell finds it, and say what to fix:

  - the superclaude your PATH finds first is this one (not another program
    of that name, nor an older copy), and is on PATH at all;
  - the claude superclaude runs, found behind a claude link to superclaude,
    and whether a plain claude is supervised;
  - superclaude's completion for your shell, where the shell looks;
  - tmux, and its version;
  - superclaude's state and runtime directories: yours, private, writable;
  - your notifications' config file (~/.config/superclaude/config.toml):
    it reads, and is yours; the notify command it names is found and
    can run; a desktop notification can be shown here (a D-Bus session
    bus with a notification server on Linux, osascript on macOS).

It changes nothing (but a probe file, written and removed) and exits 1 when
something needs fixing.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runDoctor(c.OutOrStdout(), root) },
	}
}

func runDoctor(out io.Writer, root *cobra.Command) error {
	e, err := doctor.Here(func(shell string) ([]byte, error) {
		var b bytes.Buffer
		err := runCompletion(&b, root, shell)
		return b.Bytes(), err
	})
	if err != nil {
		return err
	}
	if doctor.Write(out, doctor.Check(context.Background(), e)) > 0 {
		return exitCode(1)
	}
	return nil
}
