package launch

import (
	"errors"
	"fmt"
	"io"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/supervise"
)

// Resume is `+resume N [WHICH]`: conversation n of what +history lists
// for which (sessions.Conversations), resumed under a supervisor unless
// another live one runs it, and the run's exit code. A conversation whose
// context overflowed is resumed only after a warning on stderr and a yes
// on stdin, unless yes.
//
// It is resumed by the agent that had it: that profile's resume arguments
// and that command (issue 19: a Codex or Gemini conversation was given to
// claude, which found no such conversation). A command that is gone since
// is looked for by the profile's own name on PATH; when neither is found,
// nothing is started and the error says which agent is missing.
func Resume(n int, which string, yes bool, stdin io.Reader, stderr io.Writer) (int, error) {
	cs, what, err := sessions.Conversations(which)
	if err != nil {
		return 0, err
	}
	if n > len(cs) {
		return 0, sessions.NoConversation(what, n, len(cs))
	}
	c := cs[n-1]
	o, args, err := resumeOptions(c)
	if err != nil {
		return 0, fmt.Errorf("+resume %d: %w", n, err)
	}
	if w := cli.ResumeWarning(c); w != "" && !yes {
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
	if holder, ok, err := s.Lease(c.ID, self); err != nil {
		return 0, err
	} else if !ok {
		return 0, fmt.Errorf("conversation %s is running under the supervisor with pid %d", c.ID, holder.PID)
	}
	SingleProc()
	return Run(o, args), nil
}

// resumeOptions are the options and the agent's arguments that resume c
// with the agent that had it: its profile and, while it is there, its
// command; else the command the person configured for claude
// ($SUPERCLAUDE_AGENT, claude's only) or the profile's on PATH.
func resumeOptions(c cli.Conversation) (Options, []string, error) {
	o, err := FromEnv()
	if err != nil {
		return o, nil, err
	}
	agent := c.Agent
	if agent == "" {
		agent = cli.ClaudeAgent
	}
	profile, ok := supervise.Profiles[agent]
	if !ok || !profile.CanResume() {
		return o, nil, fmt.Errorf("conversation %s was %s's, and superclaude has no %s profile that resumes it (have %s)",
			c.ID, agent, agent, supervise.ProfileNames())
	}
	if agent != o.Profile {
		// $SUPERCLAUDE_AGENT names the command of the profile the
		// environment chose, not this one's.
		o.Agent = ""
	}
	o.Profile = agent
	var tried []string
	for _, cmd := range []string{c.Command, o.Agent, profile.Command} {
		if cmd == "" {
			continue
		}
		if _, err := agentPath(cmd); err == nil {
			o.Agent = cmd
			return o, profile.Resume(nil, c.ID), nil
		} else if errors.Is(err, errAgentIsSelf) {
			continue
		}
		tried = append(tried, cmd)
	}
	return o, nil, fmt.Errorf("conversation %s was %s's, and %s is not found here (looked for %s): install it, or put it on PATH, to resume it",
		c.ID, agent, agent, joinOr(tried))
}

// joinOr joins names as "a", "a or b", "a, b or c".
func joinOr(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " or " + names[len(names)-1]
}
