package launch

import (
	"fmt"
	"io"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/proc"
)

// Resume is `+resume N [WHICH]`: conversation n of what +history lists
// for which (sessions.Conversations), resumed under a supervisor unless
// another live one runs it, and the run's exit code. A conversation whose
// context overflowed is resumed only after a warning on stderr and a yes
// on stdin, unless yes.
func Resume(n int, which string, yes bool, stdin io.Reader, stderr io.Writer) (int, error) {
	cs, what, err := sessions.Conversations(which)
	if err != nil {
		return 0, err
	}
	if n > len(cs) {
		return 0, fmt.Errorf("%s has %d conversations; there is no %d", what, len(cs), n)
	}
	id := cs[n-1].ID
	if w := cli.ResumeWarning(cs[n-1]); w != "" && !yes {
		fmt.Fprintln(stderr, "superclaude: "+w)
		if !cli.Confirm(stdin, stderr, "Resume it anyway? [y/N] ") {
			return 0, fmt.Errorf("+resume %d: not resumed (--yes resumes it without asking)", n)
		}
	}
	s, err := sessions.OpenStore("resume")
	if err != nil {
		return 0, err
	}
	self, err := proc.Self()
	if err != nil {
		return 0, err
	}
	if holder, ok, err := s.Lease(id, self); err != nil {
		return 0, err
	} else if !ok {
		return 0, fmt.Errorf("conversation %s is running under the supervisor with pid %d", id, holder.PID)
	}
	SingleProc()
	o, err := FromEnv()
	if err != nil {
		return 0, err
	}
	return Run(o, []string{"--resume", id}), nil
}
