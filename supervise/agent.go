package supervise

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/thejerf/suture/v4"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/alarm"
	"github.com/superclaude/superclaude/internal/fswatch"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/watchdog"
)

// agentService is the agent under supervision: start, wait, sweep, decide,
// and either loop (a planned restart), fail (a crash, which suture counts)
// or end the tree (stop).
type agentService struct {
	s    *Supervisor
	next Plan
	// starts is read by the binder's status answers while Serve runs.
	starts atomic.Int32

	result   Result
	lastExit Exit
	// failedAtStart: the run ended because the agent's first start
	// failed (set with result).
	failedAtStart bool
	// restarts are the start times of the agents that were restarts,
	// those within Policy.RestartWindow of the last exit: the
	// restart-rate breaker's count.
	restarts []time.Time
	// recording is closed once the last decision's state write, which
	// goes on beside the next agent's start, is done (nil: none is under
	// way; see recordDecision).
	recording chan struct{}
	// watch is the kernel's watch of the agent's and the session's files
	// (wait), made at the first agent's start and kept for the next ones
	// (fileWatch).
	watch     *fswatch.Watcher
	watchErr  error
	watchMade bool
	// bound are the sessions the current agent was seen bound to, in
	// order (noteBound): its read-back consults each (readBackTyped).
	bound []*state.Session
}

// fileWatch returns the file watch, made the first time. It is kept across
// restarts: releasing an inotify instance waits for the kernel's grace
// period, 2–30 ms of every restart on a loaded machine when each agent had
// its own.
func (a *agentService) fileWatch() (*fswatch.Watcher, error) {
	if !a.watchMade {
		a.watchMade = true
		a.watch, a.watchErr = fswatch.New()
	}
	return a.watch, a.watchErr
}

// closeFileWatch releases the file watch, aside: nothing waits for it.
func (a *agentService) closeFileWatch() {
	if w := a.watch; w != nil {
		guard.Go(func() { w.Close() })
	}
	a.watch, a.watchErr, a.watchMade = nil, nil, false
}

func (a *agentService) String() string { return "agent" }

// testHookBeforeStart, when set by a test, runs just before each agent is
// started: where a stop used to be lost.
var testHookBeforeStart func(*Supervisor)

// Serve runs agents until the decision is to stop. It never returns while
// an agent it started is alive: suture kills nothing itself.
func (a *agentService) Serve(ctx context.Context) error {
	s := a.s
	defer a.recorded()
	defer a.closeFileWatch()
	for {
		plan := a.next
		if s.stopping.Load() {
			a.result = Result{ExitCode: a.lastExit.Code, Reason: "stopped between agents"}
			if a.starts.Load() == 0 {
				// Stopped before the first agent: it never starts.
				sig := sigOf(s.stopSignal.Load())
				a.result = Result{ExitCode: 128 + int(sig), Reason: "stopped before the agent started",
					Message: fmt.Sprintf("superclaude: stopped on %s before the agent started; it was not started", child.SignalName(sig))}
			}
			return suture.ErrTerminateSupervisorTree
		}
		first := a.starts.Load() == 0
		if !first && s.cfg.CrashDelay > 0 && a.crashed() {
			select {
			case <-time.After(s.cfg.CrashDelay):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if wait := time.Until(plan.NotBefore); wait > 0 {
			// A limit holds: start once it has reset.
			s.log.Info("waiting for a limit to reset", "until", plan.NotBefore)
			select {
			case <-time.After(wait + s.limitStagger()):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		args := s.cfg.Profile.Args(s.cfg.Args, s.inv, plan, first)
		// A restarted agent has what is typed held until it is ready
		// for keys (giveTypeahead), where its profile says it drops
		// them before (Profile.HoldKeysAtRestart). Not the first agent:
		// what it may ask first (whether to trust the folder) is the
		// person's to answer at once.
		spec := child.Spec{Path: s.cfg.Command, Args: args, Env: s.agentEnv(), Dir: s.cfg.Dir, Rewrite: s.cfg.Profile.Output,
			HoldKeys: !first && s.cfg.Profile.HoldKeysAtRestart}
		if testHookBeforeStart != nil {
			testHookBeforeStart(s)
		}
		s.tellHeld()
		ag, err := child.Start(spec, s.cfg.Terminal)
		// The session as the decision left it, its write done.
		a.recorded()
		sess0 := s.mine()
		a.bound = nil
		a.noteBound(sess0)
		var st0 *state.State
		if sess0 != nil {
			st0 = sess0.State
		}
		awaited := awaitsActivation(s.cfg.Profile, plan, st0)
		if err != nil {
			e := child.StartFailure(err)
			s.log.Error("cannot start the agent", "command", s.cfg.Command, "err", err)
			a.result = Result{ExitCode: e.Code, Reason: err.Error(),
				Message: fmt.Sprintf("superclaude: cannot start %s: %v", s.cfg.Command, err)}
			return suture.ErrTerminateSupervisorTree
		}
		a.starts.Add(1)
		if !first {
			a.restarts = append(a.restarts, time.Now())
		}
		s.mu.Lock()
		s.current = ag
		s.now = Running{Process: ag.Identity(), Args: args, Env: spec.Env, Dir: s.cfg.Dir, Started: time.Now(),
			Conversation: plan.SessionID}
		if plan.SessionID != "" && sess0 != nil && sess0.State.SessionID == plan.SessionID {
			s.now.Transcript = sess0.State.TranscriptPath
		}
		s.learned = ""
		s.mu.Unlock()
		if ag.HasTypeahead() {
			guard.Go(func() { s.giveTypeahead(ag) })
		}
		s.wd.Watch(ag.Identity())
		if s.stopping.Load() {
			// A stop that came while the agent was being started found
			// nothing to kill (Stop sets stopping before it asks the
			// watchdog, and the watchdog knows the agent from here on):
			// it is stopped at once.
			sig := sigOf(s.stopSignal.Load())
			s.wd.Kill(watchdog.Request{Reason: "superclaude got " + child.SignalName(sig) + " as the agent started", Signal: sig})
		}
		s.ensureSession()
		if why := s.cfg.Profile.cannotLearn(); why != "" && !s.inv.OneShot {
			s.noteUnknownConversation(why)
		}
		s.event("agent-start", plan.Reason, map[string]any{"pid": ag.PID(), "args": args, "plan": plan.Action.String(),
			"pane": s.cfg.Pane, "conversation": plan.SessionID, "profile": s.cfg.Profile.Name, "command": s.cfg.Command})
		s.log.Info("agent started", "pid", ag.PID(), "args", args, "plan", plan.String())

		a.wait(ctx, ag)
		exit := ag.Wait()
		// A kill under way sweeps what the agent left; let it finish
		// before the decision, so the next agent starts alone.
		s.wd.WaitKills()
		s.wd.Unwatch()
		s.agentGone() // and the restarts being written for it
		// The session leader the terminal keeps for the next agent is
		// ours, not the agent's: it is neither reaped nor swept.
		swept := s.wd.Sweep(context.Background(), child.Owned)

		e := Exit{
			Exit:           exit,
			KilledByUs:     s.killedByUs.Swap(false),
			ByPerson:       s.killForPerson.Swap(false),
			StopRequested:  s.stopping.Load() || ctx.Err() != nil,
			Resumed:        plan.Action == Resume,
			ResumeFailCode: s.cfg.Profile.resumeFailCode(),
			OneShot:        s.inv.OneShot,
			FirstStart:     a.starts.Load() == 1,
			Handoff:        awaited,
		}
		a.restarts = within(a.restarts, time.Now(), s.cfg.Policy.RestartWindow)
		e.RecentRestarts = len(a.restarts)
		a.lastExit = e
		sess := s.mine()
		if sess != nil {
			// What a writer killed mid-write (a status line claude
			// killed, say) left in the session's directory goes.
			sess.Store.RemoveStaleTemps(sess.Name)
		}
		var st *state.State
		name := ""
		switch {
		case sess != nil:
			name, st = sess.Name, sess.State
		case s.cfg.Store == nil && s.conversation() != "":
			// A run without sessions (a library's) still resumes the
			// conversation its profile learned.
			st = &state.State{Lifecycle: state.Active, SessionID: s.conversation()}
		}
		p := s.leased(Decide(e, st, s.cfg.Policy))
		if !(e.FirstStart && p.Action == Stop && p.Cause == CauseCrash) {
			// Anything but a failed first start (a restart, an exit of
			// the person's) means the run began something: its new
			// session's events are written now, not at the window's end.
			s.releaseHeld()
		}
		a.noteBound(sess)
		rb := readBackTyped(ag.Typed(), a.boundStates(sess, st), s.cfg.Profile, exit.Ended, s.cfg.Grace+untakenMargin)
		for i := range rb.Prompts {
			// Relayed by this supervisor: the person's own words, to
			// carry again should a restart come before they are answered.
			rb.Prompts[i].By = s.self.String()
		}
		if len(rb.Prompts)+len(rb.Commands)+rb.Unknown > 0 || rb.Tail != "" {
			ages := make([]string, len(rb.Prompts))
			for i, pr := range rb.Prompts {
				ages[i] = exit.Ended.Sub(pr.At).Round(time.Millisecond).String()
			}
			s.log.Info("read back what the agent never took", "prompts", len(rb.Prompts), "enter-before-exit", ages,
				"commands", len(rb.Commands), "tail", rb.Tail != "", "unknown", rb.Unknown)
		}
		toCarry, retype := splitTyped(p, s.cfg.Profile, rb)
		p, lost, lostWhy := carry(p, st, s.cfg.Profile, s.notCarried, toCarry...)
		s.log.Info("agent exited", "exit", exit.String(), "runtime", exit.Runtime().Round(time.Millisecond),
			"killed-by-us", e.KilledByUs, "swept", swept.Found, "session", name, "decision", p.String())
		s.eventIn(sess, "agent-exit", p.Reason, map[string]any{
			"code": exit.Code, "signal": int(exit.Signal), "exit": exit.String(),
			"killedByUs": e.KilledByUs, "swept": swept.Found, "decision": p.Action.String(),
			"cause": p.Cause, "conversation": s.conversation(), "costUSD": costOf(st), "transcript": transcriptOf(st),
			"overflowed": st != nil && st.Overflowed,
			"pane":       s.cfg.Pane,
			// Which CLI had the conversation: +history shows it, and
			// +resume N resumes it with that profile and command.
			"profile": s.cfg.Profile.Name, "command": s.cfg.Command,
		})
		lostMsg := s.noteCarry(sess, p, lost, lostWhy)
		s.giveBack(sess, p, rb, retype)
		if sess != nil && (p.Action != Stop || p.Cause != "") {
			a.recordDecision(sess, p, p.Action == Stop || p.Action == Backoff)
		}
		switch p.Action {
		case Stop:
			// A Stop for a crash is the first start failing (it could
			// not run, or failed as it started): the run began nothing,
			// and its own session may go (dropEmpty).
			a.failedAtStart = e.FirstStart && p.Cause == CauseCrash
			if a.failedAtStart {
				s.keepHeld()
			}
			a.result = Result{ExitCode: p.ExitCode, Reason: p.Reason}
			switch {
			case e.StopRequested:
				a.result.Message = stopMessage(s, exit)
			case p.Halt != "" && name == "":
				a.result.Message = fmt.Sprintf("superclaude: %s. Not restarting the agent.", p.Halt)
			case p.Halt != "":
				a.result.Message = fmt.Sprintf("superclaude: session %s halted, %s. Not restarting it; "+
					"`superclaude +session reset --session %s` lets it restart again.", name, p.Halt, name)
				s.attention(AttentionHalted, name, "look: superclaude stopped restarting the agent, "+p.Halt+" (superclaude +why "+name+" says more)", time.Time{})
			}
			a.result.Message = joinLines(a.result.Message, lostMsg)
			return suture.ErrTerminateSupervisorTree
		case Backoff:
			s.say(lostMsg)
			a.next = *p.Then
			return errors.New(p.Reason)
		default:
			s.say(lostMsg)
			a.next = p
		}
	}
}

// recordDecision writes the decision p into sess's state (applyPlan). With
// wait it returns once the write is done. Without, it returns as soon as
// the state file is locked and the decision applied, and the write — a
// temporary file, a rename and two fsyncs, the larger part of a restart on
// a busy disk — goes on while the next agent starts; recorded waits for
// it. Holding the lock first keeps the order of the writes: the new
// agent's own writes (claude's SessionStart hook binding its conversation)
// wait for the lock, so they always come after the decision, never under
// it (a fresh start clears the old conversation's id).
func (a *agentService) recordDecision(sess *state.Session, p Plan, wait bool) {
	s := a.s
	locked, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_, err := sess.Store.Update(sess.Name, p.Reason, func(st *state.State) error {
			defer close(locked)
			if !st.Exists() {
				return errSkip
			}
			applyPlan(st, p, s.self, p.Action != Stop, time.Now())
			if testHookRecording != nil {
				testHookRecording()
			}
			return nil
		})
		if err != nil && !errors.Is(err, errSkip) {
			s.log.Warn("recording the decision", "session", sess.Name, "err", err)
		}
	}()
	a.recording = done
	if wait {
		a.recorded()
		return
	}
	select {
	case <-locked:
	case <-done: // failed before it could read the state
	}
}

// testHookRecording, when set by a test, runs while a decision's write
// holds the state's lock: a slow disk.
var testHookRecording func()

// recorded waits for the decision's write that recordDecision left going.
func (a *agentService) recorded() {
	if a.recording != nil {
		<-a.recording
		a.recording = nil
	}
}

// within returns the times of ts no older than window before now, in
// place; a window of zero keeps none.
func within(ts []time.Time, now time.Time, window time.Duration) []time.Time {
	kept := ts[:0]
	for _, t := range ts {
		if window > 0 && now.Sub(t) <= window {
			kept = append(kept, t)
		}
	}
	return kept
}

// joinLines joins the lines that are not empty.
func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// awaitsActivation reports whether the agent a plan starts must activate
// its session to count as progress (Exit.Handoff): it takes over a handoff,
// or follows agents that made no progress (the restart prompt itself is
// delivered once) — and its profile's agents activate sessions at all. A
// Codex, which never does, is never counted against the progress breaker
// (issue 16: three crashes halted a codex session as "no progress").
func awaitsActivation(p Profile, plan Plan, st *state.State) bool {
	awaited := plan.Action == Fresh && plan.Prompt != ""
	if st != nil && st.NoProgress > 0 {
		awaited = true
	}
	return awaited && p.Activates
}

// costOf and transcriptOf read st, nil or not.
func costOf(st *state.State) float64 {
	if st == nil {
		return 0
	}
	return st.CostUSD
}

func transcriptOf(st *state.State) string {
	if st == nil {
		return ""
	}
	return st.TranscriptPath
}

// wait waits for the agent to exit. Meanwhile it passes on what the agent
// says it is doing (noteStatus), goes on after a usage limit, and
// dehydrates and restarts an agent that has left an overflow undealt with
// for longer than the policy's DehydrateWait (decideDuties), tells the
// person of a limit (attention), learns the conversation of a profile
// that can (learnConversation), and keeps its file where the profile says
// it must be kept (Profile.Keep). It looks when the agent's files
// (Profile.Watch) or the session's state file change — the kernel says so
// (internal/fswatch) — and when a timer set for the next thing due fires,
// once: an idle agent whose files do not change costs no wakeups. A change
// is looked at at once, but for a burst (lookBudget): an agent that writes
// its file many times a second while it works costs about a look a
// second, as the poll did. A profile that says
// what its agent does but names nothing to watch (or a system that gives
// no watch) is read once a second instead. When the tree stops it ends
// the agent, within the spec's timeout, before Serve returns.
func (a *agentService) wait(ctx context.Context, ag *child.Agent) {
	s := a.s
	if s.cfg.Store == nil && s.cfg.Profile.Conversation == nil {
		select {
		case <-ag.Done():
		case <-ctx.Done():
			s.stopAgent()
		}
		return
	}
	defer s.noteStatus("")
	var keeper Keeper
	if s.cfg.Profile.Keep != nil {
		keeper = s.cfg.Profile.Keep()
		defer keeper.Release()
	}
	var changed <-chan struct{}
	var w *fswatch.Watcher
	// A profile that learns from its agent's files which ones it did not
	// name is read once a second.
	poll := (s.cfg.Profile.Status != nil || s.cfg.Profile.Conversation != nil) && s.cfg.Profile.Watch == nil
	if fw, err := a.fileWatch(); err != nil {
		if a.starts.Load() == 1 {
			s.log.Warn("no file watch: reading the agent's files once a second", "err", err)
		}
		poll = true
	} else {
		w, changed = fw, fw.Changed()
	}
	dehydrateWait := time.Duration(0)
	if s.cfg.Profile.ContextUsage == ContextStatusLine {
		dehydrateWait = s.cfg.Policy.DehydrateWait
	}
	// The one timer, for the next thing due: the kernel's (internal/alarm),
	// so that a far one costs one wakeup, not the Go runtime's burst
	// around a far timer. due is when it is set to fire (zero: unset).
	timer := newWaitTimer()
	defer timer.Close()
	var due time.Time
	arm := func(t time.Time) {
		due = t
		if t.IsZero() {
			timer.Stop()
		} else {
			timer.Set(time.Until(t))
		}
	}
	arm(time.Now()) // the first look, at once
	var ws watchState
	var watching []string
	var lastLimit time.Time // the reset of the last limit told
	budget := newLookBudget(time.Now())
	for {
		select {
		case <-ag.Done():
			return
		case <-ctx.Done():
			s.stopAgent()
			return
		case <-changed:
			if at, ok := budget.take(time.Now()); !ok {
				if due.IsZero() || at.Before(due) {
					arm(at)
				}
				continue
			}
		case <-timer.C():
			due = time.Time{}
			budget.spend(time.Now()) // a change put off, or one due anyway
		}
		now := time.Now()
		s.learnConversation()
		s.keepLook(keeper)
		status := s.agentStatus()
		s.noteStatus(status)
		sess := s.mine()
		a.noteBound(sess)
		var st *state.State
		if sess != nil {
			st = sess.State
		}
		if (status != "" && status != StatusUnknown) || s.conversation() != "" || st != nil && st.SessionID != "" {
			s.releaseHeld()
		}
		set := s.agentWatch()
		if w != nil {
			if files := watchedFiles(set, sess); !slices.Equal(files, watching) {
				w.Watch(files...)
				watching = files
			}
		}
		if st != nil && st.Limit != "" && !st.LimitedUntil.Equal(lastLimit) {
			lastLimit = st.LimitedUntil
			s.attention(AttentionLimit, sess.Name, limitWant(st), lastLimit)
		}
		d := decideDuties(dutyInput{Now: now, State: st, Status: status, LimitContinue: s.cfg.Policy.LimitContinue,
			Stagger: s.limitStagger(), DehydrateWait: dehydrateWait}, &ws)
		switch {
		case d.ContinueLimit && sess != nil:
			s.continueAfterLimit(sess)
		case d.ClearLimit && sess != nil:
			s.clearLimit(sess)
		}
		if d.Dehydrate {
			why := fmt.Sprintf("the context overflowed and the agent had not dehydrated within %s", s.cfg.Policy.DehydrateWait)
			if _, err := s.restartSession(restartRequest{Reason: why, Now: true}); err != nil { // superclaude's own, not the person's
				s.log.Warn("dehydrating for the agent", "err", err)
			}
		}
		next := d.Next
		soonest := func(t time.Time) {
			if !t.IsZero() && (next.IsZero() || t.Before(next)) {
				next = t
			}
		}
		if w != nil {
			soonest(set.Until)
		}
		if poll {
			soonest(now.Add(time.Second))
		}
		arm(next)
	}
}

// waitTimer is the waiting supervisor's one timer (internal/alarm): a
// variable, so that a test can see when it is set.
type waitTimer interface {
	Set(d time.Duration)
	Stop()
	C() <-chan struct{}
	Close()
}

var newWaitTimer = func() waitTimer { return alarm.New() }

// stopAgent ends the agent when the tree stops.
func (s *Supervisor) stopAgent() {
	s.stopping.Store(true)
	s.wd.KillNow(context.Background(), watchdog.Request{Reason: "supervisor shutting down"})
}

// watchedFiles are what the waiting supervisor must see change, as
// fswatch takes them: what the agent's profile names (set; a directory
// ends in a separator) and the state file of the session it works in now.
func watchedFiles(set WatchSet, sess *state.Session) []string {
	files := append([]string(nil), set.Files...)
	for _, d := range set.Dirs {
		files = append(files, filepath.Clean(d)+string(filepath.Separator))
	}
	if sess != nil {
		files = append(files, filepath.Join(sess.Dir, state.StateFile))
	}
	return files
}

// crashed reports whether the last exit was a crash (the restart that
// follows waits CrashDelay, so a crash loop is never a hot loop).
func (a *agentService) crashed() bool {
	e := a.lastExit
	return !e.KilledByUs && !e.StopRequested && (e.Signal != 0 || (e.Code != 0 && e.Code != codeSIGTERM && e.Code != codeSIGHUP))
}

func stopMessage(s *Supervisor, exit child.Exit) string {
	sig := s.stopSignal.Load()
	if sig == 0 {
		return ""
	}
	return fmt.Sprintf("superclaude: stopped on %s; the agent %s", child.SignalName(sigOf(sig)), exit.String())
}

// agentEnv is the agent's environment: the base one with superclaude's
// variables set (replacing any inherited from an outer superclaude).
func (s *Supervisor) agentEnv() []string {
	set := OwnVariables(s.cfg, s.self, s.socket)
	env := make([]string, 0, len(s.cfg.Env)+len(set))
	for _, kv := range s.cfg.Env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ours := set[k]; !ours {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// event appends a supervisor event to the event log of the session the
// agent works in now.
func (s *Supervisor) event(kind, reason string, detail map[string]any) {
	s.eventIn(s.mine(), kind, reason, detail)
}

// eventIn appends a supervisor event about sess (nil: no session) to the
// event log of sess's sessions root, else of the supervisor's.
func (s *Supervisor) eventIn(sess *state.Session, kind, reason string, detail map[string]any) {
	store, name := s.cfg.Store, ""
	if sess != nil {
		store, name = sess.Store, sess.Name
	}
	if store == nil {
		return
	}
	store.Append(state.Event{Session: name, Actor: "supervisor", Kind: kind, Reason: reason, Detail: detail})
}
