package supervise

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/state"
)

// statusLine binds one of Claude Code's status-line ticks (the payload is
// its JSON) to the session the agent works in now — looked up at this
// tick, never remembered from an earlier one — and answers what the line
// should show. The status line process prints it.
//
// A tick that binds a conversation id for the first time also takes that
// conversation's lease: this supervisor runs it, and no other supervisor
// may resume it while this one lives.
func (s *Supervisor) statusLine(payload json.RawMessage) control.Response {
	resp := control.Response{OK: true, Supervisor: s.self.String()}
	tick, err := claude.ParseStatusLine(payload)
	if err != nil {
		resp.OK, resp.Error = false, "unreadable status-line input: "+err.Error()
		return resp
	}
	info := claude.WithTick(claude.LineInfo{Problem: "no session"}, tick)
	if sess := s.mine(); sess != nil {
		res, err := claude.Tick(sess, s.self, tick, time.Now(), 0)
		switch {
		case errors.Is(err, state.ErrNoSession):
		case err != nil:
			// The tick could not be stored (a full disk): the hooks,
			// which read the stored usage, are told what this tick saw
			// (Status.SeenUsage), and the person is told on the line.
			info = res.Info
			info.Problem = s.storeFailed(sess.Name, tick, err)
		default:
			s.storeFailed(sess.Name, tick, nil)
			info = res.Info
		}
		if res.Bound != "" {
			s.setConversation(res.Bound, tick.TranscriptPath)
			if holder, ok, err := sess.Store.Lease(res.Bound, s.self); err != nil || !ok {
				s.log.Warn("conversation lease", "id", res.Bound, "holder", holder.PID, "err", err)
			}
		}
	}
	if !s.cfg.Policy.LimitContinue {
		info.LimitContinue = state.LimitByNobody
	}
	info.Notice = s.currentNotice(time.Now())
	resp.Data, _ = json.Marshal(info)
	return resp
}

// noticeFor is how long a notice stays on the status line.
const noticeFor = 2 * time.Minute

// setNotice puts text on the status line for noticeFor: a word for the
// person that a line printed between two agents would not keep, as
// claude clears the screen when it starts.
func (s *Supervisor) setNotice(text string) {
	s.seenMu.Lock()
	s.lineNotice, s.lineNoticeUntil = text, time.Now().Add(noticeFor)
	s.seenMu.Unlock()
}

// currentNotice is the status line's notice at now, "" when none.
func (s *Supervisor) currentNotice(now time.Time) string {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	if now.After(s.lineNoticeUntil) {
		return ""
	}
	return s.lineNotice
}

// storeFailed records whether the last tick could be stored (err nil:
// it was) and what it saw, and returns what the status line says of it.
// The failure is logged once until a tick is stored again; when one is,
// the event log says for how long the session could not be saved (+why),
// and the run's end says so on the terminal (unsavedNote).
func (s *Supervisor) storeFailed(session string, tick claude.StatusLine, err error) string {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	now := time.Now()
	if err == nil {
		if s.storeProblem != "" {
			s.markUnsaved(false)
			s.unsavedUntil = now
			s.log.Info("the session can be saved again", "session", session)
			note := s.unsavedText()
			guard.Go(func() { s.event("unsaved", note, nil) })
		}
		s.storeProblem, s.seenUsage, s.toldStore = "", 0, false
		return ""
	}
	if u, ok := tick.Usage(); ok {
		s.seenUsage = u
	}
	if s.storeProblem == "" {
		s.markUnsaved(true)
	}
	s.storeProblem = trouble(err)
	if s.unsavedFrom.IsZero() || !s.unsavedUntil.IsZero() {
		s.unsavedFrom, s.unsavedUntil = now, time.Time{}
	}
	s.unsavedWhy, s.unsavedSession = s.storeProblem, session
	if sess := s.mine(); sess != nil {
		s.unsavedRoot = sess.Store.Root
	}
	if !s.toldStore {
		s.toldStore = true
		s.log.Warn("the session cannot be saved; the overflow guard goes by what the status line shows", "session", session, "err", err)
	}
	return "superclaude cannot save the session (" + s.storeProblem + "); the overflow guard goes by this line's ctx"
}

// markUnsaved says on the control socket whether ticks fail to be
// stored, for the hooks (control.MarkUnsaved): a hook asks the supervisor
// what the status line saw only when the socket says so. A mark that
// cannot be set is logged: the hooks then guard by the stored usage.
func (s *Supervisor) markUnsaved(unsaved bool) {
	if s.socket == "" {
		return
	}
	if err := control.MarkUnsaved(s.socket, unsaved); err != nil {
		s.log.Warn("the control socket cannot say whether the session can be saved", "err", err)
	}
}

// unsavedText says, for a person, when the session could not be saved
// and why: the last stretch of time its ticks failed. seenMu is held.
func (s *Supervisor) unsavedText() string {
	if s.unsavedFrom.IsZero() {
		return ""
	}
	when := "since " + s.unsavedFrom.Format("15:04")
	if !s.unsavedUntil.IsZero() {
		layout := "15:04"
		if s.unsavedUntil.Sub(s.unsavedFrom) < time.Minute {
			layout = "15:04:05"
		}
		when = "from " + s.unsavedFrom.Format(layout) + " to " + s.unsavedUntil.Format(layout)
	}
	return "session " + s.unsavedSession + " could not be saved " + when + " (" + s.unsavedWhy + "): what the agent did meanwhile is not in it, and the overflow guard went by the status line alone"
}

// unsavedNote is the line the run's end shows on the terminal when a
// status-line tick could not be stored at any time during the run (a
// full disk): the status line said so while the agent owned the
// terminal, and this says it once when the terminal is back. Empty when
// every tick was stored.
func (s *Supervisor) unsavedNote() string {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	t := s.unsavedText()
	if t == "" {
		return ""
	}
	if s.unsavedUntil.IsZero() && s.unsavedRoot != "" {
		t += "; make room on the disk of " + s.unsavedRoot
	}
	return "superclaude: " + t + "."
}

// storeState is what the supervisor knows of a store that fails: the
// usage the status line last showed, and why it could not be stored ("" when
// it could).
func (s *Supervisor) storeState() (float64, string) {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	return s.seenUsage, s.storeProblem
}

// trouble says in a few words why a write failed: the system's reason
// ("no space left on device"), without the paths.
func trouble(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
