package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/superclaude/superclaude/child"
)

// errAgentIsSelf is agentPath's answer when the only agent it can find is
// superclaude itself.
var errAgentIsSelf = errors.New("that is superclaude itself, not the agent")

// agentPath finds the agent's command as exec.LookPath does, passing over
// superclaude itself.
//
// A drop-in wrapper gets installed in the agent's place: a `claude` link
// to superclaude in a directory ahead of the real claude on PATH, so that
// every `claude` a person or a script types is supervised. superclaude
// then looks up "claude" and finds itself. Exec'd, it would look again and
// exec itself again, for ever (`claude --version` spun at full CPU); run as
// the agent, it would stack supervisors. Like ccache installed as cc, it
// takes the next one on PATH instead. A command given as a path that is
// superclaude is refused with errAgentIsSelf. A copy of superclaude is
// another file and is not seen here: started as the agent, it steps aside
// to the real one (internal/handover, SUPERCLAUDE_AGENT_FILE).
func agentPath(command string) (string, error) {
	path, err := exec.LookPath(command)
	if (err != nil && !errors.Is(err, exec.ErrDot)) || path == "" || !isSelf(path) {
		return path, err // found, or not at all; or found relative, and not us
	}
	if strings.Contains(command, "/") {
		return "", &exec.Error{Name: command, Err: errAgentIsSelf}
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "." // as exec.LookPath reads an empty entry
		}
		file := filepath.Join(dir, command)
		if !executable(file) || isSelf(file) {
			continue
		}
		if !filepath.IsAbs(file) {
			return file, &exec.Error{Name: command, Err: exec.ErrDot}
		}
		return file, nil
	}
	return "", &exec.Error{Name: command, Err: fmt.Errorf("%w (and no other %s on PATH)", errAgentIsSelf, command)}
}

// isSelf reports whether path is this program's executable.
func isSelf(path string) bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, err := os.Stat(self)
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// executable reports whether file is one exec.LookPath would take: not a
// directory, with an execute bit.
func executable(file string) bool {
	st, err := os.Stat(file)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// cannotStart says on stderr that the agent's command cannot be started,
// with what to do about a command not found, and returns the exit code a
// shell gives a command it cannot run.
func cannotStart(command string, err error) int {
	fmt.Fprintf(os.Stderr, "superclaude: cannot start %s: %v\n", command, err)
	if errors.Is(err, exec.ErrNotFound) {
		fmt.Fprintf(os.Stderr, "superclaude: install it, or set %s to its path (a shell alias or function is not seen by programs)\n", envAgent)
	}
	return child.StartFailure(err).Code
}
