package supervise

import (
	"fmt"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Action is what the supervisor does after an agent exits.
type Action int

const (
	// Stop ends superclaude with Plan.ExitCode.
	Stop Action = iota
	// Fresh starts a new conversation, with Plan.Prompt as its first
	// prompt when set. Never --resume.
	Fresh
	// Resume starts the agent on Plan.SessionID's conversation.
	Resume
	// Backoff reports a crash: the restart (Plan.Then) counts against the
	// crash-intensity limit, which suture's failure threshold, decay and
	// backoff enforce.
	Backoff
)

// String names the action as the log and the event log write it.
func (a Action) String() string {
	return [...]string{"stop", "fresh", "resume", "backoff"}[a]
}

// Exit is what the supervisor knows of how the agent ended.
type Exit struct {
	child.Exit
	// KilledByUs is set when the watchdog killed the agent on a restart
	// request (control socket or SIGUSR1).
	KilledByUs bool
	// ByPerson is set, with KilledByUs, when the person asked for the
	// restart: from a shell outside the agent's tree (`+session restart`),
	// the dashboard, SIGUSR1, or the program that runs the supervisor —
	// not the agent from inside its own tree (its Bash tool, its hooks),
	// nor superclaude's own overflow check. The requester's process is
	// checked (Supervisor.askedBy), not taken at its word. Such an end
	// says nothing of the agent's progress: the progress breaker does not
	// count it.
	ByPerson bool
	// StopRequested is set when superclaude itself was told to stop (a
	// signal, or a stop request on the control socket).
	StopRequested bool
	// Resumed is set when the agent was started with --resume.
	Resumed bool
	// ResumeFailCode is the exit code with which the agent's CLI says that
	// it cannot resume (Profile.ResumeFailCode); zero means 1.
	ResumeFailCode int
	// OneShot is set when the agent was run for one answer or one
	// subcommand (`-p`, `mcp list`, `--version`): its exit is final.
	OneShot bool
	// FirstStart is set for the agent the supervisor started first: the
	// run the person typed.
	FirstStart bool
	// Handoff is set when an activation of the session was awaited from
	// the agent: it was started fresh with a restart prompt (its
	// /superclaude:session continue activates the session), or after an
	// agent of which that was awaited made no progress. One that ends
	// before the session is activated has made no progress.
	Handoff bool
	// RecentRestarts is how many times the supervisor restarted the agent
	// — for any reason: an overflow, a request, a limit, a crash — within
	// Policy.RestartWindow before this exit, this agent's own start
	// included when it was a restart. The restart-rate breaker reads it.
	RecentRestarts int
}

// Policy holds the knobs of the decision.
type Policy struct {
	// ResumeFailWindow: an agent started with --resume that exits 1 within
	// this long could not resume (unknown or in-use id): start fresh
	// instead of trying again.
	ResumeFailWindow time.Duration
	// DehydrateWait is how long an agent whose context overflowed may
	// leave it undealt with before the supervisor dehydrates and restarts
	// it itself; zero never does.
	DehydrateWait time.Duration
	// MaxNoProgress is the progress breaker: after this many restarts in a
	// row whose fresh agent ended before it activated the session, the
	// supervisor stops restarting and marks the session halted. Zero
	// turns the breaker off.
	MaxNoProgress int
	// TurnWait is how long a restart or stop asked for from outside the
	// agent waits for it to finish its turn before it proceeds anyway;
	// zero never waits.
	TurnWait time.Duration
	// LimitContinue goes on by itself after a usage or rate limit resets:
	// it types "continue" into an agent that waits at its prompt, or
	// resumes one that exited.
	LimitContinue bool
	// StartupFailWindow: the first agent, the run the person typed, that
	// fails (a non-zero exit) within this long of its start is not started
	// again, as a drop-in wrapper must behave: plain claude given an
	// option it does not know, or no network, says so once and ends.
	// Zero restarts it as any crash (a library's default).
	StartupFailWindow time.Duration
	// MaxRestarts and RestartWindow are the restart-rate breaker: once
	// the agent has been restarted MaxRestarts times within RestartWindow,
	// the next restart, of whatever kind, is not made; the supervisor
	// stops and the session is halted with the reason. It is separate from
	// the crash limit, which counts only crashes: an agent that asks for a
	// restart as soon as it starts, or whose continuation is past the
	// threshold at once, makes progress and never crashes, yet would loop
	// for ever, paying for a model turn each time. Zero turns it off.
	MaxRestarts   int
	RestartWindow time.Duration
}

// DefaultPolicy is the policy superclaude runs with.
var DefaultPolicy = Policy{ResumeFailWindow: 10 * time.Second, DehydrateWait: 2 * time.Minute, MaxNoProgress: 3,
	TurnWait: 60 * time.Second, LimitContinue: true, MaxRestarts: 10, RestartWindow: 10 * time.Minute}

// Causes of an agent's end, as the state (lastExit), the event log and
// `+why` tell them apart.
const (
	CauseCrash       = "crash"        // it crashed, or failed to resume
	CauseLimit       = "limit"        // a usage or rate limit stopped it
	CauseNoProgress  = "no-progress"  // the progress breaker halted the session
	CauseRestartLoop = "restart-loop" // the restart-rate breaker halted the session
	CauseUserExit    = "user-exit"    // the user's own exit: /exit, Ctrl-C, SIGTERM, a hangup
	CauseStopped     = "stopped"      // superclaude was told to stop
	CauseRestarted   = "restarted"    // killed for a restart
)

// Plan is the decision: what to do, and why.
type Plan struct {
	Action Action
	// ExitCode is superclaude's exit code, for Stop.
	ExitCode int
	// Prompt is the first prompt, for Fresh.
	Prompt string
	// SessionID is the conversation to resume, for Resume.
	SessionID string
	// Then is the start a Backoff leads to: Fresh or Resume.
	Then *Plan
	// Reason says why, for the log, the event log and the person.
	Reason string
	// Overflow marks an overflow restart (S4, S6).
	Overflow bool
	// Cause says how the agent ended (Cause* constants); recorded as the
	// session's lastExit.
	Cause string
	// NoProgress marks an exit that counts against the progress breaker.
	NoProgress bool
	// Halt, for Stop, is why the progress breaker halted the session.
	Halt string
	// NotBefore, for Fresh and Resume, is when the agent may start: the
	// reset of a usage or rate limit that stopped it.
	NotBefore time.Time
	// Carried, for Fresh and Resume, are the person's prompts that no
	// turn had answered when the agent ended: the next agent's first
	// prompt carries them, after Prompt (see carry).
	Carried []state.Prompt
}

// leadsTo is the start p leads to: p itself, or a Backoff's Then.
func (p Plan) leadsTo() Plan {
	if p.Action == Backoff && p.Then != nil {
		return *p.Then
	}
	return p
}

// withStart returns p with its start (leadsTo) changed by f; a Backoff's
// Then is copied first, so that the plan p came from is left as it was.
func (p Plan) withStart(f func(*Plan)) Plan {
	if p.Action == Backoff && p.Then != nil {
		then := *p.Then
		f(&then)
		p.Then = &then
		return p
	}
	f(&p)
	return p
}

// String says what the plan does and why, in one line: what the log and
// the supervisor's start line write of a decision.
func (p Plan) String() string {
	switch p.Action {
	case Stop:
		return fmt.Sprintf("stop (exit %d): %s", p.ExitCode, p.Reason)
	case Resume:
		return fmt.Sprintf("resume %s: %s", p.SessionID, p.Reason)
	case Backoff:
		return fmt.Sprintf("backoff then %s", p.Then)
	default:
		if p.Prompt != "" {
			return fmt.Sprintf("fresh with %q: %s", p.Prompt, p.Reason)
		}
		return "fresh: " + p.Reason
	}
}

// Exit codes of a user's own exit, as Claude Code reports them: /exit or
// Ctrl-C twice (0), SIGTERM (143), a terminal hangup (129).
const (
	codeSIGTERM = 128 + 15
	codeSIGHUP  = 128 + 1
)

// userSignal reports whether an agent killed by sig was ended on purpose by
// whoever sent it, not crashed: the signals a person, a terminal or a
// system shutdown sends to end a program. SIGKILL is left out: it is what
// an out-of-memory killer sends, and what a crash test sends.
func userSignal(sig syscall.Signal) bool {
	return sig == syscall.SIGTERM || sig == syscall.SIGHUP || sig == syscall.SIGINT
}

// A shell's exit codes for a command found but not executable, and not
// found; an agent that ends with one within cannotRunWindow of its start
// is not started again.
const (
	codeCannotExecute = 126
	codeNotFound      = 127
	cannotRunWindow   = 5 * time.Second
)

// Decide is the restart decision, as a pure function of how the agent
// ended (e), the session's state after it ended (st, nil when the agent
// has no session) and the policy; docs/design.md#the-restart-decision has
// it as a table. The supervisor asks it after every exit of the agent; it
// is exported so that a program can see, without running an agent, what
// its Policy makes of an exit (a crash, a SIGTERM, a failed resume). The
// order of the checks is the order of precedence:
//
//  1. superclaude was told to stop, or the run was one-shot: stop, with the
//     agent's code.
//  2. killRequested (an overflow restart, S4/S6A/S6B): a fresh start with
//     the restart prompt, never --resume, whatever sessionId says (R1).
//  3. killed on a restart request that wrote no state (SIGUSR1): restart,
//     resuming unless overflowed.
//  4. --resume that exited at once with the CLI's code for it (unknown or
//     in-use id): fresh start, and forget the id, so that it is not tried
//     again.
//  5. a shell's 126 or 127 at once: the agent cannot run; stop, since a
//     start again fails again.
//  6. the user's own exit — 0, 143, 129 — (S5): stop with that code. So is
//     an agent killed by SIGTERM, SIGHUP or SIGINT that the supervisor did
//     not send: someone ended it on purpose, and a launcher between (the
//     npm package's node script of Codex) dies by the signal its agent
//     died by rather than exiting 143. superclaude exits 128+n.
//  7. an exit while a usage or rate limit holds (the session's limit
//     resets later) is no crash: resume, unless overflowed, once it resets.
//  8. the first start, the run the person typed, failing within
//     Policy.StartupFailWindow: stop, as plain claude says its error once.
//  9. anything else is a crash: back off, then resume unless overflowed.
//
// Then two breakers, for a restart that would come:
//
//   - the progress breaker: an agent started with a restart prompt (a
//     handoff) that ends, other than by a stop or a restart the person
//     asked for (Exit.ByPerson), before it activated the session made no
//     progress; after Policy.MaxNoProgress such restarts in a row the
//     supervisor stops restarting and the session is halted instead of
//     looping until the crash limit;
//   - the restart-rate breaker: after Policy.MaxRestarts restarts of any
//     kind within Policy.RestartWindow, no more; the session is halted.
func Decide(e Exit, st *state.State, pol Policy) Plan {
	p := decide(e, st, pol)
	if p.Action == Stop {
		return p
	}
	p = noProgress(p, e, st, pol)
	if p.Action == Stop {
		return p
	}
	return restartRate(p, e, pol)
}

// restartRate is the restart-rate breaker of Decide.
func restartRate(p Plan, e Exit, pol Policy) Plan {
	if pol.MaxRestarts <= 0 || e.RecentRestarts < pol.MaxRestarts {
		return p
	}
	code := e.Code
	if code == 0 || e.KilledByUs || p.Cause == CauseRestarted {
		// Killed for the restart: its code says nothing of how it went.
		code = 1
	}
	why := fmt.Sprintf("restart loop: the agent was restarted %d times within %s, the limit (the last one %s, and asked for %s)",
		e.RecentRestarts, pol.RestartWindow, e.Exit.String(), restartKind(p))
	return Plan{Action: Stop, ExitCode: code, Halt: why, Cause: CauseRestartLoop, Reason: "halted: " + why}
}

// restartKind says, for a person, what kind of restart p would have been.
func restartKind(p Plan) string {
	switch p.Cause {
	case CauseCrash:
		return "a restart after a crash"
	case CauseLimit:
		return "a restart after a usage limit"
	case CauseRestarted:
		if p.Overflow {
			return "a fresh context, its context window full"
		}
		return "a requested restart"
	}
	return "another restart"
}

// noProgress is the progress breaker of Decide. An agent killed for a
// restart the person asked for is not counted: three `+session restart
// --now` typed within 20 s halted a session as "no progress", for exits
// that were superclaude's own kills at the person's request.
func noProgress(p Plan, e Exit, st *state.State, pol Policy) Plan {
	if st == nil || !e.Handoff || pol.MaxNoProgress <= 0 || st.ActivatedAt.After(e.Started) || e.KilledByUs && e.ByPerson {
		return p
	}
	p.NoProgress = true
	if n := st.NoProgress + 1; n >= pol.MaxNoProgress {
		code := e.Code
		if code == 0 {
			code = 1
		}
		why := fmt.Sprintf("no progress: %d restarts in a row, and each fresh agent ended (the last %s) before it activated the session", n, e.Exit.String())
		return Plan{Action: Stop, ExitCode: code, Halt: why, Cause: CauseNoProgress, Reason: "halted: " + why}
	}
	return p
}

func decide(e Exit, st *state.State, pol Policy) Plan {
	if e.StopRequested {
		return Plan{Action: Stop, ExitCode: e.Code, Cause: CauseStopped, Reason: "superclaude was asked to stop; the agent " + e.Exit.String()}
	}
	if e.OneShot {
		return Plan{Action: Stop, ExitCode: e.Code, Reason: "one-shot run: the agent " + e.Exit.String()}
	}
	if st != nil && st.KillRequested {
		// The reason becomes the handoff the fresh agent is told of and a
		// line of +why: it says what happened, and only that.
		p := Plan{Action: Fresh, Prompt: st.RestartPrompt, Overflow: true, Cause: CauseRestarted,
			Reason: "the context window filled up: a fresh start with the continuation prompt"}
		if !st.Overflowed {
			p.Reason = "a restart was asked for: a fresh start with the continuation prompt"
		}
		return p
	}
	if e.KilledByUs {
		p := restart("a restart was asked for", st)
		p.Cause = CauseRestarted
		return p
	}
	if e.Resumed && e.Code == max(e.ResumeFailCode, 1) && e.Signal == 0 && e.Runtime() < pol.ResumeFailWindow {
		return Plan{Action: Fresh, Cause: CauseCrash,
			Reason: fmt.Sprintf("--resume failed (exit 1 after %s): starting fresh", e.Runtime().Round(time.Millisecond))}
	}
	if e.Signal == 0 && (e.Code == codeCannotExecute || e.Code == codeNotFound) && e.Runtime() < cannotRunWindow {
		// A shell's code for a command it cannot run, at once: a start
		// again fails again (a copy of superclaude found as the agent
		// with no claude after it, a launcher whose interpreter is gone).
		return Plan{Action: Stop, ExitCode: e.Code, Cause: CauseCrash,
			Reason: fmt.Sprintf("the agent could not run (it %s after %s): not started again", e.Exit.String(), e.Runtime().Round(time.Millisecond))}
	}
	if e.Signal == 0 && (e.Code == 0 || e.Code == codeSIGTERM || e.Code == codeSIGHUP) || userSignal(e.Signal) {
		return Plan{Action: Stop, ExitCode: e.Code, Cause: CauseUserExit, Reason: "the user's own exit: the agent " + e.Exit.String()}
	}
	if st != nil && st.Limit != "" && st.LimitedUntil.After(e.Ended) {
		// Stopped by a limit: not a crash. Go on after its reset.
		why := fmt.Sprintf("the agent ended at a %s that resets at %s", st.Limit, st.LimitedUntil.Local().Format("15:04:05"))
		if !pol.LimitContinue {
			return Plan{Action: Stop, ExitCode: e.Code, Cause: CauseLimit, Reason: why}
		}
		p := restart(why, st)
		p.Cause, p.NotBefore = CauseLimit, st.LimitedUntil
		return p
	}
	if e.FirstStart && e.Signal == 0 && e.Code != 0 && e.Runtime() < pol.StartupFailWindow {
		// The run the person typed failed at once (an option claude does
		// not know, no network): as plain claude, say so once and end,
		// rather than draw the same error five times.
		return Plan{Action: Stop, ExitCode: e.Code, Cause: CauseCrash,
			Reason: fmt.Sprintf("the agent failed as it started (it %s after %s): not started again", e.Exit.String(), e.Runtime().Round(time.Millisecond))}
	}
	then := restart("", st)
	return Plan{Action: Backoff, Then: &then, ExitCode: e.Code, Cause: CauseCrash, Reason: "the agent crashed: it " + e.Exit.String()}
}

// restart resumes the session's conversation unless it overflowed or has
// none (invariants 4 and 5).
func restart(reason string, st *state.State) Plan {
	switch {
	case st == nil || st.SessionID == "":
		return Plan{Action: Fresh, Reason: join(reason, "no conversation to resume")}
	case st.Overflowed:
		return Plan{Action: Fresh, Reason: join(reason, "the conversation overflowed: not resuming it")}
	default:
		return Plan{Action: Resume, SessionID: st.SessionID, Reason: join(reason, "resuming the conversation")}
	}
}

// resumable checks the id a plan would resume against the profile
// (Profile.ValidID): the state file it comes from may have been garbled,
// and an id that is not one of the CLI's — or that starts with "-", which
// the CLI would read as an option — is never given to it. Such a plan
// starts a new conversation instead, and says why; why is also returned,
// for the person ("" when the plan stands).
func resumable(p Plan, prof Profile) (Plan, string) {
	next := p.leadsTo()
	if next.Action != Resume || !prof.CanResume() {
		return p, ""
	}
	bad := prof.badID(next.SessionID)
	if bad == "" {
		return p, ""
	}
	id := next.SessionID
	if r := []rune(id); len(r) > 80 {
		id = string(r[:80]) + "…"
	}
	why := fmt.Sprintf("the recorded conversation id %q cannot be resumed (%s)", id, bad)
	return p.withStart(func(n *Plan) {
		n.Action, n.SessionID = Fresh, ""
		n.Reason = why + ": starting a new conversation"
	}), why
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// paneStartPlan is fleet resume at start (S1, S2, S3, S9): found is this pane's
// session, nil when there is none. A session whose owner is alive belongs
// to another supervisor and is left alone; one whose owner is dead is
// resumed unless it overflowed, and an overflowed session that has a
// restart prompt gets a fresh start with it (S3's guard).
func paneStartPlan(found *state.State, ownerAlive bool) Plan {
	switch {
	case found == nil:
		return Plan{Action: Fresh, Reason: "no previous session for this pane"}
	case ownerAlive:
		return Plan{Action: Fresh, Reason: "the pane's session is owned by another live supervisor"}
	case found.Overflowed && found.RestartPrompt != "":
		return Plan{Action: Fresh, Prompt: found.RestartPrompt, Overflow: true, Reason: "the previous run overflowed and asked for a restart"}
	case found.Overflowed:
		return Plan{Action: Fresh, Reason: "the previous conversation overflowed: not resuming it"}
	case found.SessionID == "":
		return Plan{Action: Fresh, Reason: "the previous session has no conversation id"}
	default:
		return Plan{Action: Resume, SessionID: found.SessionID, Reason: "resuming the pane's previous conversation"}
	}
}

// applyPlan makes the state writes that follow a plan — those run.sh made
// (docs/design.md#who-moves-it) — before the next agent starts:
//
//   - Resume: lifecycle=resuming.
//   - Fresh with a restart prompt: lifecycle=restarting and sessionId
//     deleted; overflowed stays until the prompt's /session continue
//     activates the session; the handoff marker is set, for the fresh
//     agent's first SessionStart to read and clear.
//   - Fresh without a prompt: nothing in the new conversation will
//     activate the session, so the supervisor does it on its behalf: a
//     fresh context is the proof activate stands for. lifecycle=active,
//     overflowed=false, sessionId deleted.
//
// In every case killRequested and restartPrompt are cleared and the pid is
// claimed by the supervisor that will run the new agent — claimed, not
// zeroed, so the window of race R3 (pid 0 between the decision and the new
// agent's activate) never opens. restart counts the restart. A Stop writes
// only how the agent ended (S5: the file keeps its stale pid), and a halt
// of the progress breaker, and settles the session its owner leaves
// (State.Settle: no lifecycle of a step under way). now is the time of the
// decision.
func applyPlan(st *state.State, p Plan, owner proc.Identity, restart bool, now time.Time) {
	if p.Cause != "" {
		st.LastExit, st.LastExitAt = p.Cause, now
	}
	if p.NoProgress {
		st.NoProgress++
	}
	p = p.leadsTo()
	if p.Action == Stop {
		if p.Halt != "" {
			st.Halted, st.HaltedAt = p.Halt, now
			if p.Cause == CauseNoProgress {
				st.NoProgress++
			}
		}
		if state.OwnedBy(st, owner) {
			// No agent comes after this one: a restart or resume under
			// way is over (State.Settle).
			st.Settle()
		}
		return
	}
	st.KillRequested = false
	st.RestartPrompt = ""
	keepPending(st, p.Carried)
	switch {
	case p.Action == Resume:
		st.Lifecycle = state.Resuming
	case p.Prompt != "":
		st.Lifecycle = state.Restarting
		st.SessionID = ""
		st.Handoff = p.Reason
	default:
		st.Lifecycle = state.Active
		st.Overflowed = false
		st.SessionID = ""
	}
	st.PID, st.PIDStart, st.PIDBoot = owner.PID, owner.Start, owner.Boot
	if restart {
		st.Restarts++
	}
}
