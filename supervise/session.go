package supervise

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/state"
)

var errSkip = errors.New("skip")

// startPlan finds or makes this run's session and decides the first start.
//
// In a fleet pane the pane's session is looked up (S2, S3, S9): one whose
// owner is dead is claimed and resumed unless it overflowed (StartPlan).
// Elsewhere, or when the pane has no session, the supervisor activates one
// of its own, so that people without session-activating skills still get
// overflow restart and fleet resume (DESIGN.md, "Sessions out of the
// box"). One-shot runs get no session.
func (s *Supervisor) startPlan() Plan {
	fresh := Plan{Action: Fresh, Reason: "first start"}
	store := s.cfg.Store
	if store == nil || s.inv.OneShot {
		return fresh
	}
	pane := s.cfg.Pane
	if pane != "" {
		found, err := store.FindByPane(pane)
		switch {
		case err == nil && state.OwnerAlive(found.State) && found.State.PID != s.self.PID:
			// Another live supervisor runs this pane's session (superclaude
			// inside superclaude): leave it and its pane alone.
			s.log.Warn("the pane's session belongs to a live supervisor; running without the pane", "session", found.Name, "owner", found.State.PID)
			pane = ""
		case err == nil:
			plan := s.leased(StartPlan(found.State, false))
			if s.inv.ChoseConversation {
				plan = Plan{Action: Fresh, Reason: "the user chose the conversation"}
			}
			_, err := store.Update(found.Name, "supervisor start: "+plan.Reason, func(st *state.State) error {
				if !st.Exists() {
					return errSkip
				}
				Apply(st, plan, s.self, false)
				st.FleetPaneID = pane
				return nil
			})
			if err == nil {
				s.setSession(found.Name)
				return plan
			}
			s.log.Warn("cannot claim the pane's session", "session", found.Name, "err", err)
		case !errors.Is(err, state.ErrNotFound):
			s.log.Warn("looking up the pane's session", "pane", pane, "err", err)
		}
	}

	name := s.autoName(pane)
	if _, err := store.Activate(name, "", state.Caller{Owner: s.self, Pane: pane}); err != nil {
		s.log.Warn("cannot activate a session; running without one", "session", name, "err", err)
		return fresh
	}
	// A reused directory may hold an old conversation id: this is a new
	// conversation.
	store.Update(name, "supervisor start: new conversation", func(st *state.State) error {
		if st.SessionID == "" {
			return errSkip
		}
		st.SessionID = ""
		return nil
	})
	s.setSession(name)
	return fresh
}

// leased returns p if it does not resume, or if this supervisor gets the
// conversation's lease; otherwise a fresh start: another live supervisor
// runs that conversation, and two must never run one (issue: a lease on the
// session id).
func (s *Supervisor) leased(p Plan) Plan {
	target := &p
	if p.Action == Backoff && p.Then != nil {
		then := *p.Then
		target = &then
		p.Then = target
	}
	if target.Action != Resume || s.cfg.Store == nil {
		return p
	}
	holder, ok, err := s.cfg.Store.Lease(target.SessionID, s.self)
	if err != nil {
		s.log.Warn("conversation lease", "id", target.SessionID, "err", err)
		return p
	}
	if !ok {
		*target = Plan{Action: Fresh, Reason: fmt.Sprintf("conversation %s is already running under supervisor pid %d", target.SessionID, holder.PID)}
	}
	return p
}

// autoName picks the name of the supervisor's own session: the date and the
// pane's label (or the working directory's name), with a number added when
// a live supervisor or another pane holds that name.
func (s *Supervisor) autoName(pane string) string {
	label := ""
	switch {
	case strings.Count(pane, ":") >= 2:
		label = pane[strings.LastIndex(pane, ":")+1:]
	case strings.HasPrefix(pane, "%"):
		label = "pane" + pane[1:]
	default:
		dir := s.cfg.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		label = filepath.Base(dir)
	}
	label = state.Sanitize(label)
	if label == "" {
		label = "session"
	}
	base := time.Now().Format("2006_01_02") + "_" + label
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		st, err := s.cfg.Store.Load(name)
		if errors.Is(err, state.ErrNoSession) {
			return name
		}
		if err == nil && !state.OwnerAlive(st) && (st.FleetPaneID == "" || st.FleetPaneID == pane) {
			return name
		}
	}
}

// resolveSession returns this supervisor's session now: a skill may have
// activated another session directory since the last look (the owner index
// points at the latest activation).
func (s *Supervisor) resolveSession() (string, *state.State) {
	store := s.cfg.Store
	if store == nil {
		return "", nil
	}
	if sess, err := store.FindByOwner(s.self.PID); err == nil {
		s.setSession(sess.Name)
		return sess.Name, sess.State
	}
	name := s.Session()
	if name == "" {
		return "", nil
	}
	st, err := store.Load(name)
	if err != nil {
		s.log.Warn("reading the session", "session", name, "err", err)
		return name, nil
	}
	return name, st
}
