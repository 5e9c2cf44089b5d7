package supervise

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// binder serves the control socket: the agent's children (its status line,
// its hooks, `superclaude +session restart` in its Bash tool) and other
// shells of the same user reach the supervisor through it.
//
// It is a service of the tree like the agent and the watchdog, but a
// failure of the socket is never the agent's: Serve does not return until
// the tree stops. An accept that fails (too many open files, say) is
// waited out and served again, so a flood of connections can neither
// count as agent crashes nor end the user's running agent.
type binder struct {
	s  *Supervisor
	ln *net.UnixListener
}

func (b *binder) String() string { return "binder" }

// Serve answers requests until ctx ends.
func (b *binder) Serve(ctx context.Context) error {
	pause := 10 * time.Millisecond
	for {
		err := control.Serve(ctx, b.ln, b.handle)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.s.log.Warn("control socket: serving again after an error", "err", err, "pause", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return ctx.Err()
		}
		pause = min(2*pause, time.Second)
	}
}

func (b *binder) handle(ctx context.Context, req control.Request, peer control.Peer) control.Response {
	s := b.s
	fail := func(format string, args ...any) control.Response {
		return control.Response{Supervisor: s.self.String(), Error: fmt.Sprintf(format, args...)}
	}
	resp := control.Response{OK: true, Supervisor: s.self.String()}
	switch req.Op {
	case control.OpPing:
	case control.OpStatus:
		// The wire form is control's; the conversion fails to compile
		// when the two types drift apart.
		resp.Data, _ = json.Marshal(control.Status(s.Status()))
	case control.OpRestart:
		if s.fromGoneAgent(peer.PID) {
			// Checked before anything is written: a refused request
			// changes nothing.
			return fail("the restart was asked for by what an earlier agent left running (pid %d), not by the running agent nor from outside; nothing was changed", peer.PID)
		}
		ans, err := s.restartSession(restartRequest{Which: req.Session, Transcript: req.Transcript, Now: req.Now, Resume: req.Resume, ByAgent: req.ByAgent,
			ByPerson: s.requesterOf(peer.PID) == outsideTree, Reason: orDefault(req.Reason, "restart requested over the control socket")})
		if err != nil {
			return fail("%v", err)
		}
		resp.Data, _ = json.Marshal(ans)
	case control.OpStop:
		s.stopAfterTurn(req.Now)
	case control.OpStatusLine:
		if s.cfg.Profile.ContextUsage != ContextStatusLine {
			return fail("the %s profile has no status line", s.cfg.Profile.Name)
		}
		return s.statusLine(req.Payload)
	default:
		return fail("unknown operation %s", req.Op)
	}
	return resp
}

// requester is where a request's process stands in the supervisor's tree.
type requester int

const (
	// requesterUnknown: its process could not be followed (gone, or no
	// peer credentials).
	requesterUnknown requester = iota
	// outsideTree: not the supervisor's descendant — a person's shell,
	// the dashboard — or the supervisor itself.
	outsideTree
	// inAgent: a descendant of the running agent — its tool, its hook.
	inAgent
	// inGoneAgent: a descendant of the supervisor outside the running
	// agent — what an agent that has exited left running.
	inGoneAgent
)

// fromGoneAgent reports whether pid is a process this supervisor adopted
// from an agent that has exited: a descendant of the supervisor that is
// not a descendant of the running agent (a hook of the previous claude,
// still running after the decision). Its restart request is stale — it
// was meant for an agent that is gone — and taking it would write the
// restart into the state and kill the fresh agent. The agent's own
// requests come from its descendants, a person's from outside the tree.
func (s *Supervisor) fromGoneAgent(pid int) bool { return s.requesterOf(pid) == inGoneAgent }

// requesterOf says where pid stands (requester). It climbs from pid to its
// parents, one process's record each, until it meets the agent, this
// supervisor or the top: a handful of reads, where a snapshot of the
// whole process table cost a restart asked for over the socket 150 ms on
// a machine with 1,000 more processes (issue 22).
func (s *Supervisor) requesterOf(pid int) requester {
	switch {
	case pid <= 0:
		return requesterUnknown
	case pid == s.self.PID:
		return outsideTree
	}
	agent := 0
	if a := s.currentAgent(); a != nil {
		agent = a.PID()
	}
	for p, hops := pid, 0; hops < 1024; hops++ {
		switch {
		case p <= 1:
			return outsideTree
		case p == agent:
			return inAgent
		case p == s.self.PID:
			return inGoneAgent
		}
		parent, err := proc.Parent(p)
		if err != nil {
			return requesterUnknown
		}
		p = parent
	}
	return requesterUnknown
}

// ErrNotOwner reports a restart request for a session another supervisor
// (or none) owns.
var ErrNotOwner = errors.New("the session does not belong to this supervisor")

// restartRequest is one restart of a session's agent.
type restartRequest struct {
	// Which names the session: a name in the supervisor's sessions root,
	// a session directory, or "" for the agent's own.
	Which string
	// Reason says why, for the log, the event log and the dehydrated
	// context.
	Reason string
	// Transcript is the agent's transcript when the caller knows it
	// (hooks do); else the one the status line bound.
	Transcript string
	// Now skips the wait for the agent to finish its turn: the agent asked
	// for the restart itself, or cannot go on, or the user said --now.
	Now bool
	// Resume restarts the agent in its conversation (`claude --resume`),
	// unless the context had filled up, instead of a fresh start with the
	// continuation prompt: nothing is saved or written, as for SIGUSR1.
	Resume bool
	// ByAgent: the agent asked for the restart itself, from a tool of the
	// turn under way. The person's prompts pending then are that turn's:
	// it was answering them when it asked (state.Prompt.TurnAskedRestart).
	ByAgent bool
	// ByPerson: the request came from outside the agent's tree, its
	// process checked (requesterOf): the person asked for it, and the
	// progress breaker does not count the agent it ends (Exit.ByPerson).
	ByPerson bool
}

// restartSession performs an overflow restart of a session this supervisor
// owns, for whoever asked — the agent's own `+session restart`, a hook that
// found the agent stuck at a full context, the supervisor's own check, or
// a shell of the same user naming the session: it writes the dehydrated
// context when the running agent did not (dehydrate), then the restart
// request (killRequested, the restart prompt, sessionId deleted), and
// kills the agent from outside; what starts next is decided from that
// state once the agent has exited. It never resumes and never compacts.
//
// A restart asked for from outside the agent (req.Now unset) first waits
// for the agent to finish its turn (awaitTurn), in the background: the
// answer says so, and the restart follows.
//
// Only the owner writes: a request that reaches the wrong supervisor, or a
// session whose owner is gone, changes nothing.
func (s *Supervisor) restartSession(req restartRequest) (control.RestartAnswer, error) {
	var sess *state.Session
	var err error
	switch {
	case s.cfg.Store == nil:
		return control.RestartAnswer{}, errors.New("this supervisor runs without sessions")
	case req.Which == "":
		if sess = s.mine(); sess == nil {
			return control.RestartAnswer{}, errors.New("the agent has no session")
		}
	default:
		sess, err = s.lookupSession(req.Which)
		if err != nil {
			return control.RestartAnswer{}, err
		}
	}
	if !state.OwnedBy(sess.State, s.self) {
		return control.RestartAnswer{}, fmt.Errorf("%w: %s belongs to pid %d, not %d", ErrNotOwner, sess.Name, sess.State.PID, s.self.PID)
	}
	if s.currentAgent() == nil {
		return control.RestartAnswer{}, errNoAgent
	}
	if s.restartTaken() {
		return control.RestartAnswer{}, errRestartTaken
	}
	if req.Resume {
		waiting := !req.Now && s.cfg.Policy.TurnWait > 0 && mustWait(s.agentStatus())
		if req.Now {
			if err := s.restartNow(req.Reason, map[string]any{"now": true, "resume": true}, req.ByPerson); err != nil {
				return control.RestartAnswer{}, err
			}
		} else {
			s.restartAfterTurn(req.Reason, req.ByPerson)
		}
		return control.RestartAnswer{Session: sess.Name, Dir: sess.Dir, Waiting: waiting, Resume: true}, nil
	}
	status := s.agentStatus()
	if !req.Now && s.cfg.Policy.TurnWait > 0 && mustWait(status) {
		guard.Go(func() {
			waited, ended := s.awaitTurn(s.cfg.Policy.TurnWait)
			s.log.Info("restart waited for the agent's turn", "waited", waited.Round(time.Millisecond), "turn-ended", ended)
			if _, err := s.performRestart(sess, req, waited); err != nil {
				s.log.Warn("restart after the agent's turn", "session", sess.Name, "err", err)
			}
		})
		return control.RestartAnswer{Session: sess.Name, Dir: sess.Dir, Waiting: true}, nil
	}
	if !req.Now && status == StatusUnknown {
		req.Reason += "; " + s.turnUnknown()
	}
	ans, err := s.performRestart(sess, req, 0)
	ans.TurnUnknown = !req.Now && status == StatusUnknown
	return ans, err
}

// performRestart is restartSession's second half: dehydrate, write the
// restart request, kill. waited is how long it waited for the agent's
// turn, for the event log (+why).
func (s *Supervisor) performRestart(sess *state.Session, req restartRequest, waited time.Duration) (control.RestartAnswer, error) {
	arg := sess.Name
	if sess.Store.Root != s.cfg.Store.Root {
		arg = sess.Dir
	}
	// The agent's one restart (restartclaim.go): a request for an agent
	// that ended while it waited, or whose restart another request took,
	// writes nothing.
	claim, err := s.takeRestart()
	if err != nil {
		s.log.Info(refusedRestart(req.Reason, err))
		return control.RestartAnswer{}, err
	}
	wrote := false
	defer func() { claim.end(wrote) }()
	if fresh, err := sess.Store.Load(sess.Name); err == nil {
		sess.State = fresh // what the turn we waited for changed
	}
	if !s.dehydrate(sess, arg, req.Transcript, req.Reason) {
		// Nothing saved the agent's context, so nothing can be handed to
		// a fresh agent, and a fresh agent is never told to read a file
		// nobody wrote: restart the agent on its conversation instead
		// (Decide resumes it when it is known, and says so when not).
		why := req.Reason + "; no saved context to start fresh from, so the agent restarts on its conversation"
		if !claim.kill(why, req.ByPerson) {
			return control.RestartAnswer{}, errNoAgent
		}
		wrote = true
		s.eventIn(sess, "restart", why, map[string]any{"waitedMs": waited.Milliseconds(), "now": req.Now})
		return control.RestartAnswer{Session: sess.Name, Dir: sess.Dir, Resume: true}, nil
	}
	// A turn asked only while one is under way: the agent's Bash tool
	// runs in a turn, but a shell the person opened from the agent (its
	// environment names this supervisor too) may run at an idle prompt.
	byTurn := req.ByAgent && s.agentStatus() != StatusIdle
	st, err := sess.Store.RequestRestart(sess.Name, byTurn, func(st *state.State) string {
		return s.cfg.Profile.restartPrompt(arg, st.Skill, st.CurrentPhase)
	})
	if err != nil {
		return control.RestartAnswer{}, err
	}
	wrote = true
	s.eventIn(sess, "restart", req.Reason, map[string]any{"waitedMs": waited.Milliseconds(), "now": req.Now})
	if !claim.kill(req.Reason, req.ByPerson) {
		// The agent ended as the request was written: the decision for
		// its exit, which waits for this write, reads killRequested and
		// makes the restart.
		s.log.Info("the agent ended as its restart was written; the decision for its exit makes the restart", "session", sess.Name)
	}
	return control.RestartAnswer{Session: sess.Name, Dir: sess.Dir, Prompt: st.RestartPrompt}, nil
}

// stopAfterTurn stops the supervisor for a stop asked for over the
// socket (`+down`): once the agent has finished its turn, unless now.
func (s *Supervisor) stopAfterTurn(now bool) {
	if now || s.cfg.Policy.TurnWait <= 0 || !mustWait(s.agentStatus()) {
		s.stop(0)
		return
	}
	guard.Go(func() {
		waited, ended := s.awaitTurn(s.cfg.Policy.TurnWait)
		s.log.Info("stop waited for the agent's turn", "waited", waited.Round(time.Millisecond), "turn-ended", ended)
		s.stop(0)
	})
}

// lookupSession reads the session which names: a name in the supervisor's
// sessions root, or a session directory anywhere.
func (s *Supervisor) lookupSession(which string) (*state.Session, error) {
	store, name := s.cfg.Store, which
	if filepath.IsAbs(which) {
		var err error
		if store, name, err = s.cfg.Store.At(which); err != nil {
			return nil, err
		}
	} else if err := state.CheckName(which); err != nil {
		return nil, err
	}
	st, err := store.Load(name)
	if err != nil {
		return nil, err
	}
	return &state.Session{Name: name, Dir: filepath.Join(store.Root, name), State: st, Store: store}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
