package handover

import (
	"errors"
	"os"
	"path"
	"syscall"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/lookpath"
)

// envvar.AgentFile lists, separated by colons, the files started as the
// agent since a superclaude last supervised: every start of the agent sets it to
// that one file (this package's hand-over, the one-shot paths, the
// supervisor), and each copy of superclaude passed through (below) adds
// the file it hands over to.
//
// It is how a copy of superclaude found as the agent steps aside. The
// lookup of claude on PATH (internal/lookpath) passes over superclaude's
// own file, but a copy, or an older install beside a newer one, is a
// different file: found as claude, it used to look up claude again, find
// the first copy, and so on. `--version` exec'd back and forth for ever at
// full CPU; a supervised start stacked supervisors, hundreds a second, each
// with a pty and a session, until memory ran out. A superclaude that is
// the last file named here is such a copy: it does nothing of its own and
// execs the agent's command found again on PATH, passing over every file
// already named and itself, arguments unchanged. Each hop names one more
// file, so the chain ends.
//
// envvar.AgentParent is the PID of the agent's parent and a hash of the
// agent's arguments (envvar.AgentParentValue), set by every start of the
// agent:
// the one-shot superclaude itself, the session leader of an interactive
// one (child/leader.go), the supervisor without a pty, the parent of a
// process handed over. A superclaude whose parent and arguments it names
// is the agent, or what the agent exec'd, even when the file started was
// not superclaude: a shell script `exec superclaude "$@"` installed as
// claude is a different file, and used to start superclaude, which found
// the script as claude again, for ever. Superclaude's own commands ('+')
// are never the agent's.

// passThroughErr is why a copy of superclaude started as the agent could
// not hand over; see PassThroughFailed.
var passThroughErr error

// PassThroughFailed returns why this process, a copy of superclaude that a
// superclaude started as its agent, could not hand over to the real agent,
// or why superclaude, nested envvar.Depth deep in itself, must not start one;
// nil when neither. Main must then report it and exit 127, never
// supervise: that would stack supervisors.
func PassThroughFailed() error { return passThroughErr }

// passThrough hands over to the real agent when this program is the file a
// superclaude started as its agent. It returns false when that is not so;
// true when it is and the hand-over failed (passThroughErr says why).
func passThrough(args []string, self string) bool {
	started := splitList(os.Getenv(envvar.AgentFile))
	if len(started) == 0 || self == "" {
		return false
	}
	named := lookpath.SameFile(self, started[len(started)-1])
	if !named && !startedAsAgent(args, os.Getenv(envvar.AgentParent), os.Getppid()) {
		return false
	}
	next, err := NextAgent(started, os.Getenv("PATH"), self, os.Args[0])
	if err == nil {
		list := os.Getenv(envvar.AgentFile) + ":" + next
		err = syscall.Exec(next, append([]string{next}, args...), setEnv(syscall.Environ(), envvar.AgentFile, list))
		err = &os.PathError{Op: "exec", Path: next, Err: err}
	}
	passThroughErr = err
	return true
}

// startedAsAgent reports whether a superclaude with arguments args and
// parent ppid is the process a superclaude started as its agent, whose
// parent and arguments it recorded in parent (envvar.AgentParent): the same
// parent, the agent's arguments at the end of ours, as a wrapper that
// adds its own before "$@" passes them on, and, when the parent adopts
// orphans, its eldest child (eldestChild).
func startedAsAgent(args []string, parent string, ppid int) bool {
	if parent == "" || len(args) > 0 && len(args[0]) > 0 && args[0][0] == '+' {
		return false
	}
	pid, rest, _ := cut(parent, ':')
	count, _, _ := cut(rest, ':')
	n := 0
	for _, c := range count {
		if c < '0' || c > '9' || n > len(args) {
			return false
		}
		n = n*10 + int(c-'0')
	}
	value, adopts := parent, false
	if len(value) > len(envvar.Adopts) && value[len(value)-len(envvar.Adopts):] == envvar.Adopts {
		value, adopts = value[:len(value)-len(envvar.Adopts)], true
	}
	return count != "" && pid == itoa(ppid) && n <= len(args) && value == envvar.AgentParentValue(ppid, args[len(args)-n:]) &&
		(!adopts || eldestChild(ppid))
}

// cut is strings.Cut for a byte (strings is not imported: see the package
// comment).
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// NextAgent finds the agent a superclaude started as the agent of another
// hands over to: the name of the last file started (claude), or else the
// name this one was started by (argv0: a wrapper script given as
// $SUPERCLAUDE_AGENT that runs `claude …` finds superclaude installed as
// claude), looked up on pathList (internal/lookpath), passing over every
// file already started and self. An error says why there is none.
func NextAgent(started []string, pathList, self, argv0 string) (string, error) {
	last := started[len(started)-1]
	names := []string{path.Base(last)}
	if b := path.Base(argv0); argv0 != "" && b != names[0] && b != path.Base(self) {
		names = append(names, b)
	}
	for _, name := range names {
		if next, err := lookpath.Find(name, pathList, "", append(started, self)...); err == nil {
			return next, nil
		}
	}
	return "", errors.New(last + " led back to superclaude, and no other " + names[0] +
		" is on an absolute PATH entry")
}

// splitList splits a colon-separated list, dropping empty elements.
func splitList(list string) []string {
	var out []string
	for start := 0; start < len(list); {
		end := start
		for end < len(list) && list[end] != ':' {
			end++
		}
		if end > start {
			out = append(out, list[start:end])
		}
		start = end + 1
	}
	return out
}

// setEnv returns env with key set to value, replacing any value it had.
func setEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			continue
		}
		out = append(out, kv)
	}
	return append(out, key+"="+value)
}
