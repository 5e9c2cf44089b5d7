package supervise

import (
	"os"
	"path/filepath"
	"time"

	"github.com/superclaude/superclaude/state"
)

// dehydrate writes sess's dehydrated context itself, through the profile,
// from the agent's transcript — unless the running agent wrote the file
// since it started (its own /superclaude:session dehydrate did). arg is
// how the restart prompt names the session; why says what caused the
// restart. It reports whether the file now holds this agent's context: a
// profile without Dehydrate, whose agent saved nothing, has none, and a
// fresh agent must then not be told to read it.
//
// This is what turns a dead end into a restart: an agent whose automatic
// compaction was blocked, or whose prompt no longer fits, cannot run
// dehydrate any more; and an agent restarted from outside never did.
func (s *Supervisor) dehydrate(sess *state.Session, arg, transcript, why string) bool {
	path := filepath.Join(sess.Dir, state.DehydratedFile)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.ModTime().After(s.agentStarted()) {
		s.log.Info("the agent saved its own context; keeping it", "file", path)
		return true
	}
	if s.cfg.Profile.Dehydrate == nil {
		return false
	}
	if transcript == "" {
		transcript = sess.State.TranscriptPath
	}
	st := sess.State
	text, err := s.cfg.Profile.Dehydrate(transcript, arg, st.Skill, st.CurrentPhase, why)
	if err != nil {
		s.log.Warn("reading the transcript for the dehydrated context", "transcript", transcript, "err", err)
	}
	if err := sess.Store.WriteFile(path, text); err != nil {
		s.log.Warn("writing the dehydrated context", "file", path, "err", err)
		return false
	}
	s.log.Info("wrote the dehydrated context", "file", path, "bytes", len(text), "why", why)
	return true
}

// overdue reports whether the supervisor must dehydrate for an agent that
// was told to (its session overflowed, every tool blocked) and has not
// begun within wait: an agent that sits at a prompt nobody answers, or is
// stuck. since is when the overflow was first seen (zero: not yet); the
// new value is returned. A session that is dehydrating, whose restart is
// already requested, or whose fresh agent has yet to activate it
// (restarting) is never overdue: that would restart a restart.
func overdue(st *state.State, since, now time.Time, wait time.Duration) (bool, time.Time) {
	if st == nil || !st.Overflowed || st.KillRequested ||
		st.Lifecycle == state.Dehydrating || st.Lifecycle == state.Restarting {
		return false, time.Time{}
	}
	if since.IsZero() {
		return false, now
	}
	return now.Sub(since) >= wait, since
}
