package doctor

import (
	"context"
	"os"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/notify"
	"github.com/superclaude/superclaude/internal/version"
)

// Here is the Env of this process, as +doctor looks at it: this
// superclaude, the person's environment and superclaude's directories.
// completion is the completion script this superclaude writes for a
// shell (cmd/superclaude's +completion).
func Here(completion func(shell string) ([]byte, error)) (Env, error) {
	self, err := config.Executable()
	if err != nil {
		return Env{}, err
	}
	stateDir, _ := config.StateDir()
	return Env{
		Self: self, Version: "superclaude " + version.Get().String(),
		PATH: os.Getenv("PATH"), HOME: os.Getenv("HOME"), SHELL: os.Getenv("SHELL"),
		XDGDataHome: os.Getenv("XDG_DATA_HOME"), XDGConfigHome: os.Getenv("XDG_CONFIG_HOME"),
		Agent: os.Getenv(envvar.Agent), StateDir: stateDir, RuntimeDir: control.RuntimeDir,
		Completion: completion, NotifyConfig: notify.ConfigPath(),
		Desktop: func(ctx context.Context) (string, error) { return notify.CheckDesktop(ctx, os.Getenv) },
	}, nil
}
