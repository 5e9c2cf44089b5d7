package sessions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Restart is `+session restart`: it asks sess's supervisor to restart its
// agent (RequestRestart), after the turn under way unless now. The
// agent's own request — its Bash tool runs this under the session's own
// supervisor — goes at once: it asks for itself.
//
// A completed session is refused when the person asks, whoever still owns
// it (issue 19: one completed by hand in the shell that activated it said
// it was "held by a shell"): its skill is done, so no agent works in it
// until it is activated again, as the dashboard's r and f say too.
func Restart(sess *state.Session, now bool) (control.RestartAnswer, error) {
	own := false
	if sup, err := config.Supervisor(); err == nil && state.OwnedBy(sess.State, sup) {
		own = true
	}
	if !own && sess.State.Lifecycle == state.Completed {
		return control.RestartAnswer{}, CompletedError(sess)
	}
	return RequestRestart(sess, "superclaude +session restart", "", now || own, own)
}

// RequestRestart asks the live supervisor that owns sess — its identity
// verified on the socket, so that no other process can take the request —
// to restart its agent, for reason; transcript is the agent's transcript
// when the caller knows it; byAgent says the agent's own turn asks (its
// Bash tool). The supervisor writes the state; this command writes
// nothing, so a session without a live owner is left as it was.
func RequestRestart(sess *state.Session, reason, transcript string, now, byAgent bool) (control.RestartAnswer, error) {
	var ans control.RestartAnswer
	owner := state.Owner(sess.State)
	if !state.OwnerAlive(sess.State) {
		// Words for the person: it used to say "no live supervisor owns
		// session X (its owner, pid N, is not running)".
		return ans, fmt.Errorf("session %s is stopped: no superclaude runs its agent, so nothing was restarted "+
			"(superclaude started in its pane again resumes it)", sess.Name)
	}
	if owner.Start == 0 {
		// A seed-era file: verify what the PID is now.
		id, err := proc.Of(owner.PID)
		if err != nil {
			return ans, fmt.Errorf("session %s: owner pid %d: %w", sess.Name, owner.PID, err)
		}
		owner = id
	}
	sock, err := socketOf(owner)
	if errors.Is(err, control.ErrNoSocket) {
		return ans, fmt.Errorf("session %s is held by pid %d, a shell where it was activated by hand (+session activate), not by superclaude: "+
			"no agent of it can be restarted; it is let go when that shell exits; nothing was changed", sess.Name, owner.PID)
	}
	if err != nil {
		return ans, err
	}
	ans, err = control.NewClient(sock, owner).Restart(context.Background(),
		control.Restart{Session: sess.Dir, Reason: reason, Transcript: transcript, Now: now, ByAgent: byAgent})
	if err != nil {
		return ans, fmt.Errorf("session %s: its superclaude did not take the restart (%w); nothing was changed", sess.Name, err)
	}
	return ans, nil
}

// CompletedError says that sess is completed, so there is nothing to
// restart, and how to work in it again.
func CompletedError(sess *state.Session) error {
	again := "superclaude +session activate " + sess.Dir
	if sess.State.Skill != "" {
		again += " " + sess.State.Skill
	}
	return fmt.Errorf("session %s is completed: its skill is done and no agent works in it, so nothing was restarted; "+
		"to work in it again, activate it (%s)", sess.Name, again)
}

// socketOf returns where the supervisor owner listens: the socket the
// environment names when owner is the environment's own supervisor, else
// the socket control.FindSocket finds for it in the runtime directories.
func socketOf(owner proc.Identity) (string, error) {
	if sup, err := config.Supervisor(); err == nil && sup == owner {
		if sock := os.Getenv(envvar.Socket); sock != "" {
			return sock, nil
		}
	}
	return control.FindSocket(owner.PID)
}

// RestartLine says in one line, for the person, what the supervisor with pid does about
// the restart it was asked for (ans).
func RestartLine(pid int, ans control.RestartAnswer) string {
	var line string
	switch {
	case ans.Waiting:
		line = fmt.Sprintf("the agent of session %s is in the middle of a turn: its supervisor (pid %d) restarts it when the turn ends, in a minute at most (--now restarts at once)",
			ans.Session, pid)
	case ans.Resume:
		line = fmt.Sprintf("the supervisor (pid %d) is restarting session %s's agent on its conversation: nothing saved its context for a fresh start",
			pid, ans.Session)
	default:
		line = fmt.Sprintf("the supervisor (pid %d) is restarting session %s with a fresh context; the new agent starts with: %s",
			pid, ans.Session, termtext.Clean(strings.Join(strings.Fields(ans.Prompt), " ")))
	}
	if ans.TurnUnknown {
		line += " (it did not wait for a turn to end: the agent's CLI does not say whether it is in one)"
	}
	return line
}
