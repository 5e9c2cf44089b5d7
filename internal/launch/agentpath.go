package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/lookpath"
)

// errAgentIsSelf is agentPath's answer when the only agent it can find is
// superclaude itself.
var errAgentIsSelf = errors.New("that is superclaude itself, not the agent")

// agentPath finds the agent's command as exec.LookPath does, passing over
// superclaude itself (internal/lookpath says why), with exec.LookPath's
// errors. A command given as a path that is superclaude is refused with
// errAgentIsSelf. A copy of superclaude is another file and is not seen
// here: started as the agent, it steps aside to the real one
// (internal/handover, SUPERCLAUDE_AGENT_FILE).
func agentPath(command string) (string, error) {
	self, _ := os.Executable()
	path, err := lookpath.Find(command, os.Getenv("PATH"), "", self)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, lookpath.ErrSkipped) && strings.Contains(command, "/"):
		err = errAgentIsSelf
	case errors.Is(err, lookpath.ErrSkipped):
		err = fmt.Errorf("%w (and no other %s on PATH)", errAgentIsSelf, command)
	case errors.Is(err, lookpath.ErrNotFound):
		err = exec.ErrNotFound
	case errors.Is(err, lookpath.ErrDot):
		err = exec.ErrDot
	}
	return path, &exec.Error{Name: command, Err: err}
}

// cannotStart says on stderr that the agent's command cannot be started,
// with what to do about a command not found, and returns the exit code a
// shell gives a command it cannot run.
func cannotStart(command string, err error) int {
	fmt.Fprintf(os.Stderr, "superclaude: cannot start %s: %s\n", command, whyNotStarted(command, err))
	if errors.Is(err, exec.ErrNotFound) {
		fmt.Fprintf(os.Stderr, "superclaude: install it, or set %s to its path (a shell alias or function is not seen by programs)\n", envvar.Agent)
	}
	return child.StartFailure(err).Code
}

// whyNotStarted is err in words for the person: the exec package's
// `exec: "claude": executable file not found in $PATH` and `stat X: no
// such file or directory` name system calls, and the command twice.
func whyNotStarted(command string, err error) string {
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "no program of that name is on your PATH"
	case errors.Is(err, fs.ErrNotExist):
		return "there is no such file"
	case errors.Is(err, fs.ErrPermission):
		return "you may not run that file (it is not executable, or not yours to run)"
	}
	if ee := (*exec.Error)(nil); errors.As(err, &ee) {
		return ee.Err.Error() // without exec's "exec: NAME:", which repeats the command
	}
	return err.Error()
}
