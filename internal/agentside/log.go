package agentside

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/state"
)

// logFile is where +log appends: --file, else the session's target file,
// else <SKILL>_LOG.md; relative names are in the session directory. It
// returns the name as given, for messages, and the path (which
// state.Store.AppendFile holds to the session directory).
func logFile(sess *state.Session, flag string) (name, path string) {
	name = flag
	if name == "" {
		name = sess.State.TargetFile
	}
	if name == "" {
		skill := sess.State.Skill
		if skill == "" {
			skill = "SESSION"
		}
		name = strings.ToUpper(state.Sanitize(skill)) + "_LOG.md"
	}
	if filepath.IsAbs(name) {
		return name, name
	}
	return name, filepath.Join(sess.Dir, name)
}

// Log is `+log`: it appends text, under a heading of the time, to the log
// of the session which names (a name or a directory; "": the one the agent
// works in) — file, else the session's target file, else <SKILL>_LOG.md —
// and resets the session's logging heartbeat. It returns the file's path.
func Log(text, file, which string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", errors.New("+log: nothing on stdin to log")
	}
	store, err := sessions.OpenStore("log")
	if err != nil {
		return "", err
	}
	// --session as every +session subcommand has it (issue 19); else this
	// agent's session.
	sess, err := sessions.Find(store, which)
	if err != nil {
		return "", fmt.Errorf("+log: %w", err)
	}
	name, path := logFile(sess, file)
	if err := sess.Store.AppendFile(path, fmt.Appendf(nil, "\n## %s\n\n%s\n", state.FormatTime(time.Now()), text)); err != nil {
		return "", fmt.Errorf("+log: not appending to %s: %w", name, err)
	}
	sess.Store.Update(sess.Name, "", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		st.LastHeartbeat = time.Now()
		return nil
	})
	return path, nil
}
