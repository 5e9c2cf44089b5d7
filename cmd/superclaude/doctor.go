package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/doctor"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/version"
)

func newDoctorCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "+doctor",
		Short: "check the install: which superclaude and claude your PATH finds, completion, tmux, superclaude's directories; says what to fix",
		Long: `Check the install as your shell finds it, and say what to fix:

  - the superclaude your PATH finds first is this one (not another program
    of that name, nor an older copy), and is on PATH at all;
  - the claude superclaude runs, found behind a claude link to superclaude,
    and whether a plain claude is supervised;
  - superclaude's completion for your shell, where the shell looks;
  - tmux, and its version;
  - superclaude's state and runtime directories: yours, private, writable.

It changes nothing (but a probe file, written and removed) and exits 1 when
something needs fixing.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			if resolved, err := filepath.EvalSymlinks(self); err == nil {
				self = resolved
			}
			stateDir, _ := config.StateDir()
			e := doctor.Env{
				Self: self, Version: "superclaude " + version.Get().String(),
				PATH: os.Getenv("PATH"), HOME: os.Getenv("HOME"), SHELL: os.Getenv("SHELL"),
				XDGDataHome: os.Getenv("XDG_DATA_HOME"), XDGConfigHome: os.Getenv("XDG_CONFIG_HOME"),
				Agent: os.Getenv(envvar.Agent), StateDir: stateDir, RuntimeDir: control.RuntimeDir,
				Completion: func(shell string) ([]byte, error) {
					var b bytes.Buffer
					cmd := completionCommand(root)
					cmd.SetOut(&b)
					err := cmd.RunE(cmd, []string{shell})
					return b.Bytes(), err
				},
			}
			if doctor.Write(c.OutOrStdout(), doctor.Check(context.Background(), e)) > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
}
