package supervise

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

var errSkip = errors.New("skip")

// mine is the session the supervisor's agent works in now, looked up at
// every call (state.Store.Mine): the session this supervisor activated
// last — a skill may have activated another a moment ago — else its pane's.
// Nil when it has none.
func (s *Supervisor) mine() *state.Session {
	if s.cfg.Store == nil {
		return nil
	}
	sess, err := s.cfg.Store.Mine(s.self, s.cfg.Pane)
	if err != nil {
		if !errors.Is(err, state.ErrNotFound) {
			s.log.Warn("looking up the session", "err", err)
		}
		return nil
	}
	return sess
}

// session returns the name of the session the agent works in now ("" when
// it has none).
func (s *Supervisor) session() string {
	if sess := s.mine(); sess != nil {
		return sess.Name
	}
	return ""
}

// startPlan decides the first start, and whether the supervisor must
// activate a session of its own once the agent runs.
//
// In a pane the pane's session is looked up (S2, S3, S9): one whose owner
// is dead is claimed, and resumed unless it overflowed (paneStartPlan) — as
// the resume policy says (chooseResume): a labelled pane (a fleet's:
// session:window:label, which survives a tmux restart) resumes what a
// fleet stop, a crash or a lost tmux server interrupted, and asks after
// the user's own exit; an unlabelled pane's identity lives only as long
// as its tmux server, and its conversation is never resumed without
// asking. A Stop plan means the person chose to start nothing. Without a
// pane session, the supervisor activates one of its own after the agent
// has started (ensureSession), so that people without session-activating
// skills still get overflow restart and fleet resume
// (docs/design.md#sessions-out-of-the-box). One-shot runs get no session.
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
		case err == nil && found.State.Halted != "":
			// Expiry by state, not by time: a halted session is not
			// resumed; the pane gets a session of its own, and the halted
			// one keeps its record until `+session reset`.
			s.log.Warn("the pane's session is halted; starting a new one", "session", found.Name, "halted", found.State.Halted)
		case err == nil && state.OwnerAlive(found.State) && !state.OwnedBy(found.State, s.self) && !completedByHand(found.State):
			// Another live supervisor runs this pane's session (superclaude
			// inside superclaude), or a shell holds it, where a person
			// typed `+session activate`: leave it and its pane alone.
			s.log.Warn("the pane's session belongs to a live owner; running without the pane", "session", found.Name, "owner", found.State.PID)
			pane = ""
			if _, serr := control.FindSocket(found.State.PID); serr != nil {
				// A shell: nothing else would tell the person why this
				// claude does not carry on the pane's work.
				fresh.Reason = fmt.Sprintf("first start, in a session of its own: the pane's session %s is held by pid %d, "+
					"a shell where it was activated by hand, until that shell exits", found.Name, found.State.PID)
				s.notice = fmt.Sprintf("superclaude: this pane's session %s is held by pid %d, a shell where it was activated by hand "+
					"(+session activate); claude starts in a session of its own. The pane's session is let go when that shell exits.",
					found.Name, found.State.PID)
			}
		case err == nil:
			plan := paneStartPlan(found.State, false)
			if was := agentOf(found.State); plan.Action == Resume && was != s.cfg.Profile.Name {
				// A conversation is its CLI's: codex cannot resume
				// claude's (it was offered, and got `codex resume <id>`).
				plan = Plan{Action: Fresh, Reason: fmt.Sprintf("a new conversation: the pane's last one was %s's, which %s cannot resume",
					was, s.cfg.Profile.Name)}
			}
			if s.inv.ChoseConversation {
				plan = Plan{Action: Fresh, Reason: "the user chose the conversation"}
			}
			plan = s.resumable(plan)
			if plan.Action == Resume {
				if plan = s.chooseResume(found, tmux.Labelled(pane), plan); plan.Action == Stop {
					return plan
				}
			}
			found.Store.RemoveStaleTemps(found.Name)
			plan = s.leased(plan)
			_, err := found.Store.Update(found.Name, "supervisor start: "+plan.Reason, func(st *state.State) error {
				if !st.Exists() {
					return errSkip
				}
				applyPlan(st, plan, s.self, false, time.Now())
				st.FleetPaneID = pane
				return nil
			})
			if err == nil {
				return plan
			}
			s.log.Warn("cannot claim the pane's session", "session", found.Name, "err", err)
		case !errors.Is(err, state.ErrNotFound):
			s.log.Warn("looking up the pane's session", "pane", pane, "err", err)
		}
	}
	s.autoPane, s.needAuto = pane, true
	return fresh
}

// completedByHand reports whether st is a completed session whose live
// owner is no supervisor (it serves no control socket): the shell where
// it was activated, and completed, by hand. Completed, it holds nothing
// (issue 19: it kept its pane from the next superclaude there until that
// shell exited), so the pane's start claims it as it would a session
// whose owner is gone.
func completedByHand(st *state.State) bool {
	if st.Lifecycle != state.Completed {
		return false
	}
	_, err := control.FindSocket(st.PID)
	return errors.Is(err, control.ErrNoSocket)
}

// agentOf names the agent CLI whose conversation st holds: the profile
// its supervisor recorded, claude in a file written before profiles were.
func agentOf(st *state.State) string {
	if st.AgentProfile == "" {
		return Claude.Name
	}
	return st.AgentProfile
}

// chooseResume applies the resume policy to plan, a resume of found's
// conversation: it stays, becomes a new conversation in the same session,
// or — the person's answer to Config.Ask — a Stop.
func (s *Supervisor) chooseResume(found *state.Session, labelled bool, plan Plan) Plan {
	choice := resumeMode(found.State, labelled, s.cfg.ResumePolicy)
	if choice == askUser {
		// With nobody to ask, a labelled pane resumes and an unlabelled
		// one never does silently.
		choice = ChooseNew
		if labelled {
			choice = ChooseResume
		}
		if s.cfg.Ask != nil {
			choice = s.cfg.Ask(offerOf(found))
		}
		s.eventIn(found, "resume-choice", [...]string{"resume", "new", "abort"}[choice], nil)
	}
	switch choice {
	case ChooseNew:
		return Plan{Action: Fresh, Reason: "a new conversation, not the pane's previous one (" + found.State.SessionID + ")"}
	case ChooseAbort:
		return Plan{Action: Stop, Reason: "you chose Abort"}
	}
	return plan
}

// ensureSession activates the supervisor's own session (auto) if startPlan
// found none, once the agent has started: nothing is created for a run
// whose agent never starts. A session a skill activates later takes over
// from it (state.Store.Activate).
func (s *Supervisor) ensureSession() {
	if !s.needAuto {
		return
	}
	s.needAuto = false
	if s.mine() != nil {
		return // the agent activated one already
	}
	dir := s.cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	name, err := s.autoName(s.autoPane, dir)
	if err != nil {
		s.log.Warn("cannot name a session; running without one", "err", err)
		return
	}
	existed := s.cfg.Store.Exists(name)
	// A session this run makes may turn out to hold nothing (dropEmpty):
	// its events wait in memory until the agent has outlived the time in
	// which a failed start is told apart, so that such a run leaves no
	// line in the event log either.
	window := s.cfg.Policy.StartupFailWindow
	held := !existed && window > 0
	if held {
		s.cfg.Store.HoldEvents(name)
	}
	_, err = s.cfg.Store.Activate(name, "", state.Caller{Owner: s.self, Pane: s.autoPane, Auto: true, ProjectDir: dir})
	if err != nil {
		s.cfg.Store.ReleaseEvents(name)
		s.log.Warn("cannot activate a session; running without one", "session", name, "err", err)
		return
	}
	if !existed {
		s.autoMade = name
	}
	if held {
		store := s.cfg.Store
		s.heldUntil = time.AfterFunc(window, func() { store.ReleaseEvents(name) })
	}
}

// releaseHeld writes the held events of the session this run made as soon
// as its agent shows that it started (it says what it is doing, or its
// conversation is known or bound to the session), before the startup
// window ends: a new session's +why and the dashboard's last event wait no
// longer than they must.
func (s *Supervisor) releaseHeld() {
	if s.heldUntil != nil && s.heldUntil.Stop() {
		s.cfg.Store.ReleaseEvents(s.autoMade)
	}
}

// keepHeld keeps the events of the session this run made held past the
// startup window: the agent's first start failed, and the run's end
// decides (dropEmpty).
func (s *Supervisor) keepHeld() {
	if s.heldUntil != nil {
		s.heldUntil.Stop()
	}
}

// dropEmpty removes, as the run ends, the session of its own that this
// run made (ensureSession), when the run began nothing: the agent's first
// start failed — it could not run, or failed as it started (an option
// claude does not know, no network) — and nothing is in the session: no
// conversation bound, nothing paid, no prompt typed, the directory holds
// nothing but superclaude's state file, and no other process (a hook, the
// status line) wrote of it in the event log. A person would later find
// only clutter in +status (ten sessions after twenty minutes, most of
// them such runs). Nothing of such a run is kept: not the directory, not
// its lookup index entries, not a line in the event log (its events were
// held: ensureSession). A session a skill activated, one that existed
// before this run, and one whose agent ran at all are never dropped: what
// happened there is +why's to tell, and its held events are written.
//
// It returns the name of the session it removed, "" when none.
func (s *Supervisor) dropEmpty() string {
	if s.autoMade == "" || s.cfg.Store == nil {
		return ""
	}
	name := s.autoMade
	s.keepHeld()
	if !s.beganNothing(name) {
		s.cfg.Store.ReleaseEvents(name)
		return ""
	}
	if err := s.cfg.Store.Remove(name, "nothing happened in it: the agent failed as it started", s.self); err != nil {
		s.cfg.Store.ReleaseEvents(name)
		s.log.Warn("removing the empty session", "session", name, "err", err)
		return ""
	}
	if !s.cfg.Store.DropEvents(name) {
		// Written already (the window passed as the run ended): the
		// removal, written with them, says what became of the session.
		s.log.Info("the empty session's events were written before it was removed", "session", name)
	}
	s.log.Info("removed the empty session", "session", name)
	return name
}

// settle is the run's last write to its session: the session this
// supervisor leaves is settled (State.Settle), so that no view of it says
// "restarting", "resuming" or loading once nothing runs it — whatever
// ended the run (a stop, a halt, crashes past the limit after a backoff
// had planned a resume). Nothing is written when there is nothing to
// settle, or when the session has another owner now.
func (s *Supervisor) settle() {
	sess := s.mine()
	if sess == nil || !state.OwnedBy(sess.State, s.self) || !sess.State.Clone().Settle() {
		return
	}
	_, err := sess.Store.Update(sess.Name, "supervisor end: nothing runs the session now", func(st *state.State) error {
		if !st.Exists() || !state.OwnedBy(st, s.self) || !st.Settle() {
			return errSkip
		}
		return nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		s.log.Warn("settling the session", "session", sess.Name, "err", err)
	}
}

// beganNothing reports whether the session name, which this run made,
// holds nothing of the run (dropEmpty).
func (s *Supervisor) beganNothing(name string) bool {
	if !s.agent.failedAtStart {
		return false
	}
	st, err := s.cfg.Store.Load(name)
	if err != nil || !st.Auto || !state.OwnedBy(st, s.self) || st.SessionID != "" || st.CostUSD > 0 ||
		len(st.PendingPrompts) > 0 || st.LastPromptID != "" || st.Halted != "" || st.Limit != "" {
		return false
	}
	if files, err := s.cfg.Store.Files(name); err != nil || len(files) > 0 {
		return false
	}
	evs, err := s.cfg.Store.Events(name)
	return err == nil && len(evs) == 0
}

// resumable is p, unless it resumes an id the profile's CLI must not be
// given (resumable, the function): then a new conversation, of which the
// person is told — in the log, on the status line (which a fresh claude
// shows), on the terminal before the agent starts or between two agents,
// and again at the run's end, once the terminal is back. +why has it from
// the plan's reason.
func (s *Supervisor) resumable(p Plan) Plan {
	p, why := resumable(p, s.cfg.Profile)
	if why == "" {
		return p
	}
	msg := "superclaude: " + why + "; a new conversation was started instead."
	s.log.Warn("not resuming a conversation id the agent cannot take", "why", why)
	s.setNotice(why + ": a new conversation")
	if s.starts() == 0 {
		s.notice = joinLines(s.notice, msg)
	} else {
		s.say(msg)
	}
	s.mu.Lock()
	s.endNote = joinLines(s.endNote, msg)
	s.mu.Unlock()
	return p
}

// leased returns p if it does not resume, or if this supervisor gets the
// conversation's lease; otherwise a fresh start: another live supervisor
// runs that conversation, and two must never run one (issue: a lease on the
// session id).
func (s *Supervisor) leased(p Plan) Plan {
	p = s.resumable(p)
	next := p.leadsTo()
	if next.Action != Resume || s.cfg.Store == nil {
		return p
	}
	holder, ok, err := s.cfg.Store.Lease(next.SessionID, s.self)
	if err != nil {
		s.log.Warn("conversation lease", "id", next.SessionID, "err", err)
		return p
	}
	if !ok {
		return p.withStart(func(next *Plan) {
			*next = Plan{Action: Fresh, Reason: fmt.Sprintf("conversation %s is already running under supervisor pid %d", next.SessionID, holder.PID)}
		})
	}
	return p
}

// autoName picks the name of the supervisor's own session: the date and the
// pane's label (or the working directory's name), with a number added when
// a live supervisor or another pane holds that name.
//
// The search is bounded and stops at an error that is not about one name
// (the sessions root unreadable, say): an unbounded search that only ends at
// ErrNoSession once spun at full CPU before claude ever started.
func (s *Supervisor) autoName(pane, dir string) (string, error) {
	var label string
	switch {
	case pane != "" && tmux.Labelled(pane):
		label = pane[strings.LastIndex(pane, ":")+1:]
	case pane != "":
		label = "pane" + strings.TrimPrefix(tmux.PaneNumber(pane), "%")
	default:
		label = filepath.Base(dir)
	}
	label = state.Sanitize(label)
	if label == "" {
		label = "session"
	}
	base := time.Now().Format("2006_01_02") + "_" + label
	for i := 1; i <= maxAutoNames; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		st, err := s.cfg.Store.Load(name)
		var bad *state.Error
		switch {
		case errors.Is(err, state.ErrNoSession):
			return name, nil
		case err == nil:
			if st.Auto && !state.OwnerAlive(st) && (st.FleetPaneID == "" || st.FleetPaneID == pane) {
				return name, nil
			}
		case errors.As(err, &bad), errors.Is(err, state.ErrUnsafePath):
			// This name's file is corrupt or a link: leave it and try the next.
		default:
			return "", err
		}
	}
	return "", fmt.Errorf("no free session name among %s … %s_%d", base, base, maxAutoNames)
}

// maxAutoNames bounds autoName's search.
const maxAutoNames = 1000
