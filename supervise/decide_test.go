package supervise

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

var t0 = time.Date(2026, 2, 7, 14, 30, 0, 0, time.UTC)

func exited(code int, after time.Duration) Exit {
	return Exit{Exit: child.Exit{Code: code, Started: t0, Ended: t0.Add(after)}}
}

func signalled(sig syscall.Signal) Exit {
	return Exit{Exit: child.Exit{Code: 128 + int(sig), Signal: sig, Started: t0, Ended: t0.Add(time.Minute)}}
}

func with(e Exit, f func(*Exit)) Exit { f(&e); return e }

// session returns a state as the statusline and hooks leave it.
func session(f func(*state.State)) *state.State {
	st := &state.State{PID: 4242, Lifecycle: state.Active, SessionID: "conv-1", StartedAt: t0, ContextUsage: 0.3}
	if f != nil {
		f(st)
	}
	return st
}

func TestDecideCoversTheSeedScenarios(t *testing.T) {
	overflowRestart := func(st *state.State) {
		// After /session dehydrate → session restart (S4 step 4).
		st.Overflowed, st.KillRequested, st.SessionID = true, true, ""
		st.RestartPrompt = "/session continue --session S --skill implement --phase \"P\""
	}
	for _, tc := range []struct {
		name   string
		exit   Exit
		st     *state.State
		action Action
		code   int    // for Stop
		prompt string // for Fresh
		resume string // for Resume (directly or after Backoff)
		then   Action // for Backoff
	}{
		// S5: the user's own exit.
		{"S5 /exit", exited(0, time.Hour), session(nil), Stop, 0, "", "", 0},
		{"S5 SIGTERM from outside", exited(143, time.Hour), session(nil), Stop, 143, "", "", 0},
		{"S5 terminal hangup", exited(129, time.Hour), session(nil), Stop, 129, "", "", 0},
		{"S1 no session, /exit", exited(0, time.Minute), nil, Stop, 0, "", "", 0},
		// Issue 16: a SIGTERM, a hangup or a SIGINT someone sent the agent
		// is the user's own exit, even when a launcher in between (Codex's
		// node script) dies by the signal instead of exiting 143.
		{"SIGTERM through a launcher", signalled(syscall.SIGTERM), session(nil), Stop, 143, "", "", 0},
		{"SIGHUP through a launcher", signalled(syscall.SIGHUP), session(nil), Stop, 129, "", "", 0},
		{"SIGINT sent by hand", signalled(syscall.SIGINT), session(nil), Stop, 130, "", "", 0},
		{"SIGTERM on a restart is ours", with(signalled(syscall.SIGTERM), func(e *Exit) { e.KilledByUs = true }), session(nil), Resume, 0, "", "conv-1", 0},

		// S4 / S6A: overflow restart, sessionId deleted by restart.
		{"S4 overflow restart", with(exited(143, time.Hour), func(e *Exit) { e.KilledByUs = true }),
			session(overflowRestart), Fresh, 0, "/session continue --session S --skill implement --phase \"P\"", "", 0},
		{"S6A killed at the grace", with(signalled(syscall.SIGKILL), func(e *Exit) { e.KilledByUs = true }),
			session(overflowRestart), Fresh, 0, "/session continue --session S --skill implement --phase \"P\"", "", 0},
		// S6B: the status line resurrected sessionId (R1): still no resume.
		{"S6B sessionId resurrected", with(exited(143, time.Hour), func(e *Exit) { e.KilledByUs = true }),
			session(func(st *state.State) { overflowRestart(st); st.SessionID = "conv-1" }),
			Fresh, 0, "/session continue --session S --skill implement --phase \"P\"", "", 0},
		// killRequested wins even when the agent happened to exit 0.
		{"restart requested, agent exited 0", exited(0, time.Hour), session(overflowRestart),
			Fresh, 0, "/session continue --session S --skill implement --phase \"P\"", "", 0},

		// An agent that cannot run (a shell's 126/127, at once) is not
		// started again; after a long run the same code is a crash.
		{"agent not found", exited(127, 30*time.Millisecond), session(nil), Stop, 127, "", "", 0},
		{"agent not executable", exited(126, time.Second), session(nil), Stop, 126, "", "", 0},
		{"127 after an hour is a crash", exited(127, time.Hour), session(nil), Backoff, 0, "", "conv-1", Resume},

		// The run the person typed failing as it starts ends, as plain
		// claude would; later, or after running a while, it is a crash.
		{"first start fails at once", with(exited(1, 800*time.Millisecond), func(e *Exit) { e.FirstStart = true }),
			session(nil), Stop, 1, "", "", 0},
		{"first start fails after a while", with(exited(1, time.Minute), func(e *Exit) { e.FirstStart = true }),
			session(nil), Backoff, 0, "", "conv-1", Resume},
		{"a later start fails at once", exited(1, 800*time.Millisecond), session(nil), Backoff, 0, "", "conv-1", Resume},
		{"first start resumed and refused", with(exited(1, 800*time.Millisecond), func(e *Exit) { e.FirstStart, e.Resumed = true, true }),
			session(nil), Fresh, 0, "", "", 0},

		// SIGUSR1 with no state written: restart, resume unless overflowed.
		{"SIGUSR1 healthy", with(exited(143, time.Hour), func(e *Exit) { e.KilledByUs = true }), session(nil), Resume, 0, "", "conv-1", 0},
		{"SIGUSR1 overflowed", with(exited(143, time.Hour), func(e *Exit) { e.KilledByUs = true }),
			session(func(st *state.State) { st.Overflowed = true }), Fresh, 0, "", "", 0},

		// --resume of an unknown or in-use id: fresh, not a loop.
		{"resume failed fast", with(exited(1, 2*time.Second), func(e *Exit) { e.Resumed = true }), session(nil), Fresh, 0, "", "", 0},
		{"resumed, crashed much later", with(exited(1, time.Hour), func(e *Exit) { e.Resumed = true }), session(nil), Backoff, 0, "", "conv-1", Resume},
		// Each CLI has its own code for it: Gemini CLI's is 42, and its 1 is
		// a crash (its launcher's, when the CLI under it was killed).
		{"gemini resume failed fast", with(exited(42, time.Second), func(e *Exit) { e.Resumed, e.ResumeFailCode = true, 42 }), session(nil), Fresh, 0, "", "", 0},
		{"gemini crashed fast after a resume", with(exited(1, time.Second), func(e *Exit) { e.Resumed, e.ResumeFailCode = true, 42 }), session(nil), Backoff, 0, "", "conv-1", Resume},

		// Crashes: restart within the intensity limit, resuming unless
		// overflowed.
		{"crash exit 1", exited(1, time.Hour), session(nil), Backoff, 0, "", "conv-1", Resume},
		{"crash SIGKILL (OOM)", signalled(syscall.SIGKILL), session(nil), Backoff, 0, "", "conv-1", Resume},
		{"crash SIGSEGV", signalled(syscall.SIGSEGV), session(nil), Backoff, 0, "", "conv-1", Resume},
		{"crash while overflowed (S9-like)", exited(1, time.Hour), session(func(st *state.State) { st.Overflowed = true }), Backoff, 0, "", "", Fresh},
		{"crash without a session", exited(2, time.Hour), nil, Backoff, 0, "", "", Fresh},
		{"crash before the first status line", exited(1, time.Hour), session(func(st *state.State) { st.SessionID = "" }), Backoff, 0, "", "", Fresh},

		// superclaude itself was told to stop: never restart.
		{"stop requested", with(exited(143, time.Second), func(e *Exit) { e.StopRequested = true }), session(overflowRestart), Stop, 143, "", "", 0},
		{"stop requested, killed", with(signalled(syscall.SIGKILL), func(e *Exit) { e.StopRequested = true }), session(nil), Stop, 137, "", "", 0},
		// One-shot runs keep claude's exit code, even a failure.
		{"one-shot failure", with(exited(1, time.Second), func(e *Exit) { e.OneShot = true }), nil, Stop, 1, "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := DefaultPolicy
			pol.StartupFailWindow = 5 * time.Second // as superclaude runs claude
			p := Decide(tc.exit, tc.st, pol)
			if p.Action != tc.action {
				t.Fatalf("Decide = %v, want %v", p, tc.action)
			}
			if p.Reason == "" {
				t.Error("no reason given")
			}
			switch tc.action {
			case Stop:
				if p.ExitCode != tc.code {
					t.Errorf("exit code %d, want %d", p.ExitCode, tc.code)
				}
			case Fresh:
				if p.Prompt != tc.prompt || p.SessionID != "" {
					t.Errorf("fresh plan %+v, want prompt %q and no session", p, tc.prompt)
				}
			case Resume:
				if p.SessionID != tc.resume {
					t.Errorf("resume %q, want %q", p.SessionID, tc.resume)
				}
			case Backoff:
				if p.Then == nil || p.Then.Action != tc.then || p.Then.SessionID != tc.resume {
					t.Errorf("backoff then %+v, want %v %q", p.Then, tc.then, tc.resume)
				}
			}
		})
	}
}

func TestStartPlanIsFleetResume(t *testing.T) {
	for _, tc := range []struct {
		name   string
		found  *state.State
		alive  bool
		action Action
		resume string
		prompt string
	}{
		{"S1/S2 no session", nil, false, Fresh, "", ""},
		{"S3 dead owner, healthy", session(nil), false, Resume, "conv-1", ""},
		{"S9 dead owner, overflowed", session(func(st *state.State) { st.Overflowed = true }), false, Fresh, "", ""},
		{"S3 guard: overflowed with restart prompt", session(func(st *state.State) {
			st.Overflowed, st.RestartPrompt = true, "/session continue --session S"
		}), false, Fresh, "", "/session continue --session S"},
		{"no sessionId", session(func(st *state.State) { st.SessionID = "" }), false, Fresh, "", ""},
		{"owner alive", session(nil), true, Fresh, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := paneStartPlan(tc.found, tc.alive)
			if p.Action != tc.action || p.SessionID != tc.resume || p.Prompt != tc.prompt {
				t.Fatalf("paneStartPlan = %+v", p)
			}
		})
	}
}

func TestApplyWritesTheSupervisorRowsOfTheWriterAudit(t *testing.T) {
	me := proc.Identity{PID: 99, Start: 12345, Boot: "b"}
	overflowed := func() *state.State {
		return session(func(st *state.State) {
			st.Overflowed, st.KillRequested, st.SessionID, st.RestartPrompt = true, true, "conv-1", "/session continue"
		})
	}

	st := overflowed()
	applyPlan(st, Plan{Action: Fresh, Prompt: "/session continue", Reason: "overflow restart requested", Cause: CauseRestarted}, me, true, t0)
	if st.KillRequested || st.RestartPrompt != "" || st.Lifecycle != state.Restarting || st.SessionID != "" ||
		!st.Overflowed || st.PID != 99 || st.PIDStart != 12345 || st.Restarts != 1 ||
		st.Handoff != "overflow restart requested" || st.LastExit != CauseRestarted || !st.LastExitAt.Equal(t0) {
		t.Errorf("overflow restart wrote %+v", st)
	}

	st = session(nil)
	applyPlan(st, Plan{Action: Backoff, Then: &Plan{Action: Resume, SessionID: "conv-1"}}, me, true, t0)
	if st.Lifecycle != state.Resuming || st.SessionID != "conv-1" || st.PID != 99 || st.Restarts != 1 {
		t.Errorf("crash resume wrote %+v", st)
	}

	st = overflowed()
	st.RestartPrompt = ""
	applyPlan(st, Plan{Action: Fresh}, me, false, t0)
	if st.Lifecycle != state.Active || st.Overflowed || st.SessionID != "" || st.KillRequested || st.Restarts != 0 {
		t.Errorf("fresh without prompt wrote %+v", st)
	}

	st = session(nil)
	before := *st
	applyPlan(st, Plan{Action: Stop, ExitCode: 0, Cause: CauseUserExit}, me, true, t0)
	if st.PID != before.PID || st.Lifecycle != before.Lifecycle || st.Restarts != 0 || st.LastExit != CauseUserExit || st.Halted != "" {
		t.Errorf("stop wrote %+v", st)
	}
	st = session(func(st *state.State) { st.NoProgress = 2 })
	applyPlan(st, Plan{Action: Stop, Halt: "no progress", Cause: CauseNoProgress}, me, true, t0)
	if st.Halted != "no progress" || !st.HaltedAt.Equal(t0) || st.NoProgress != 3 || st.LastExit != CauseNoProgress {
		t.Errorf("a halt wrote %+v", st)
	}
}

// Regression, issue 19: a /exit before a restart's continuation left the
// session "restarting" (and loading) for good, and a stop before a resumed
// agent was seen to run left it "resuming": a Stop of the owner's agent
// settles the session. Another supervisor's session is left alone.
func TestAStopLeavesNoRestartingOrResumingBehind(t *testing.T) {
	me := proc.Identity{PID: 99, Start: 12345, Boot: "b"}
	loading := true
	for _, lc := range []state.Lifecycle{state.Restarting, state.Resuming} {
		st := session(func(st *state.State) {
			st.PID, st.PIDStart, st.PIDBoot = me.PID, me.Start, me.Boot
			st.Lifecycle, st.Loading, st.Overflowed, st.Handoff = lc, &loading, true, "overflow restart requested"
		})
		applyPlan(st, Plan{Action: Stop, Cause: CauseUserExit}, me, true, t0)
		if st.Lifecycle != state.Active || st.Loading != nil || !st.Overflowed || st.Handoff == "" || st.LastExit != CauseUserExit {
			t.Errorf("a stop from %s wrote %+v", lc, st)
		}
		other := session(func(st *state.State) { st.PID, st.Lifecycle = 7, lc })
		applyPlan(other, Plan{Action: Stop, Cause: CauseStopped}, me, true, t0)
		if other.Lifecycle != lc {
			t.Errorf("a stop settled another supervisor's session: %+v", other)
		}
	}
	skill := session(func(st *state.State) {
		st.PID, st.PIDStart, st.PIDBoot, st.Skill, st.Loading = me.PID, me.Start, me.Boot, "implement", &loading
	})
	applyPlan(skill, Plan{Action: Stop, Cause: CauseStopped}, me, true, t0)
	if skill.Loading == nil {
		t.Errorf("a stop cleared a skill's own bootstrap flag: %+v", skill)
	}
}

// The progress breaker (issue 10): a fresh agent started with the restart
// prompt that ends before it activates the session made no progress; the
// third such restart in a row halts the session instead of restarting it.
func TestProgressBreaker(t *testing.T) {
	handoff := func(e Exit) Exit { e.Handoff = true; return e }
	activated := func(at time.Time) func(*state.State) {
		return func(st *state.State) { st.ActivatedAt = at }
	}
	for _, tc := range []struct {
		name       string
		exit       Exit
		st         *state.State
		action     Action
		noProgress bool
		halt       bool
	}{
		{"a handoff agent crashed before activating", handoff(exited(1, time.Minute)), session(activated(t0.Add(-time.Hour))), Backoff, true, false},
		{"…a second time", handoff(exited(1, time.Minute)), session(func(st *state.State) { st.NoProgress = 1 }), Backoff, true, false},
		{"…the third time: halted", handoff(exited(1, time.Minute)), session(func(st *state.State) { st.NoProgress = 2 }), Stop, false, true},
		{"overflowed again before activating", with(handoff(exited(143, time.Minute)), func(e *Exit) { e.KilledByUs = true }),
			session(func(st *state.State) { st.KillRequested, st.RestartPrompt, st.NoProgress = true, "p", 2 }), Stop, false, true},
		{"it activated: progress", handoff(exited(1, time.Minute)), session(func(st *state.State) { st.NoProgress = 2; st.ActivatedAt = t0.Add(time.Second) }), Backoff, false, false},
		{"not a handoff agent", exited(1, time.Minute), session(func(st *state.State) { st.NoProgress = 2 }), Backoff, false, false},
		{"the user's own exit is no failure", handoff(exited(0, time.Minute)), session(func(st *state.State) { st.NoProgress = 2 }), Stop, false, false},
		{"superclaude stopped", with(handoff(exited(143, time.Minute)), func(e *Exit) { e.StopRequested = true }), session(func(st *state.State) { st.NoProgress = 2 }), Stop, false, false},
		// Regression: three `+session restart --now` typed within 20 s
		// halted the session as "no progress" — superclaude's own kills,
		// at the person's request. The agent asking from inside its own
		// tree, or the overflow check, still counts.
		{"killed for a restart the person asked for", with(handoff(exited(143, 5*time.Second)), func(e *Exit) { e.KilledByUs, e.ByPerson = true, true }),
			session(func(st *state.State) { st.KillRequested, st.RestartPrompt, st.NoProgress = true, "p", 2 }), Fresh, false, false},
		{"…a resume the person asked for", with(handoff(exited(143, 5*time.Second)), func(e *Exit) { e.KilledByUs, e.ByPerson = true, true }),
			session(func(st *state.State) { st.NoProgress = 2 }), Resume, false, false},
		{"killed for a restart the agent asked for", with(handoff(exited(143, 5*time.Second)), func(e *Exit) { e.KilledByUs = true }),
			session(func(st *state.State) { st.KillRequested, st.RestartPrompt, st.NoProgress = true, "p", 2 }), Stop, false, true},
		{"a crash after the person's restarts", handoff(exited(1, time.Minute)), session(func(st *state.State) { st.NoProgress = 2 }), Stop, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Decide(tc.exit, tc.st, DefaultPolicy)
			if p.Action != tc.action || p.NoProgress != tc.noProgress || (p.Halt != "") != tc.halt {
				t.Fatalf("Decide = %+v", p)
			}
			if tc.halt && (p.Cause != CauseNoProgress || !strings.Contains(p.Halt, "3 restarts")) {
				t.Fatalf("halt without a readable reason: %+v", p)
			}
		})
	}
	// The restart-rate breaker still counts the person's restarts.
	loop := with(handoff(exited(143, time.Second)), func(e *Exit) { e.KilledByUs, e.ByPerson, e.RecentRestarts = true, true, 10 })
	if p := Decide(loop, session(nil), DefaultPolicy); p.Action != Stop || p.Cause != CauseRestartLoop {
		t.Fatalf("ten restarts the person asked for within the window: %+v", p)
	}
	off := DefaultPolicy
	off.MaxNoProgress = 0
	if p := Decide(handoff(exited(1, time.Minute)), session(func(st *state.State) { st.NoProgress = 9 }), off); p.Action != Backoff || p.NoProgress {
		t.Fatalf("the breaker turned off still counted: %+v", p)
	}
}

// Every end of an agent names its cause, so that +why and the state tell
// crashes, limits, no progress and the user's own exit apart.
func TestDecideNamesTheCause(t *testing.T) {
	for _, tc := range []struct {
		exit  Exit
		st    *state.State
		cause string
	}{
		{exited(0, time.Hour), session(nil), CauseUserExit},
		{exited(129, time.Hour), session(nil), CauseUserExit},
		{exited(1, time.Hour), session(nil), CauseCrash},
		{signalled(syscall.SIGSEGV), session(nil), CauseCrash},
		{with(exited(1, time.Second), func(e *Exit) { e.Resumed = true }), session(nil), CauseCrash},
		{with(exited(143, time.Hour), func(e *Exit) { e.KilledByUs = true }), session(nil), CauseRestarted},
		{with(exited(143, time.Hour), func(e *Exit) { e.StopRequested = true }), session(nil), CauseStopped},
	} {
		if p := Decide(tc.exit, tc.st, DefaultPolicy); p.Cause != tc.cause {
			t.Errorf("%s → cause %q, want %q", tc.exit.String(), p.Cause, tc.cause)
		}
	}
}

func TestPlanStringsSayWhy(t *testing.T) {
	p := Decide(exited(1, time.Hour), session(nil), DefaultPolicy)
	if !strings.Contains(p.String(), "resume conv-1") || !strings.Contains(p.Reason, "exited with 1") {
		t.Errorf("%q / %q", p, p.Reason)
	}
}

// Without StartupFailWindow (a library's default) a first agent that fails
// at once is a crash like any other, restarted.
func TestAFirstStartFailureIsACrashByDefault(t *testing.T) {
	e := with(exited(1, 100*time.Millisecond), func(e *Exit) { e.FirstStart = true })
	if p := Decide(e, session(nil), DefaultPolicy); p.Action != Backoff {
		t.Errorf("Decide = %v, want a backoff and restart", p)
	}
}

// The restart-rate breaker counts restarts of every kind — requested,
// overflow, limit, crash — and stops the one past the limit, halting the
// session with a reason that names the count and the window.
func TestDecideBreaksARestartLoopOfAnyKind(t *testing.T) {
	pol := DefaultPolicy
	pol.MaxRestarts, pol.RestartWindow = 4, time.Minute
	killed := func(e Exit) Exit { e.KilledByUs = true; return e }
	recent := func(n int, e Exit) Exit { e.RecentRestarts = n; return e }
	for _, tc := range []struct {
		name string
		exit Exit
		st   *state.State
		kind string
	}{
		{"requested", killed(exited(143, time.Second)), session(nil), "a requested restart"},
		{"overflow", killed(exited(143, time.Second)), session(func(st *state.State) {
			st.KillRequested, st.Overflowed, st.RestartPrompt = true, true, "p"
		}), "a fresh context, its context window full"},
		{"limit", exited(1, time.Second), session(func(st *state.State) {
			st.Limit, st.LimitedUntil = "5-hour usage limit", t0.Add(time.Hour)
		}), "a restart after a usage limit"},
		{"crash", exited(1, time.Hour), session(nil), "a restart after a crash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := Decide(recent(3, tc.exit), tc.st, pol); p.Action == Stop {
				t.Fatalf("stopped below the limit: %+v", p)
			}
			p := Decide(recent(4, tc.exit), tc.st, pol)
			if p.Action != Stop || p.Cause != CauseRestartLoop || p.ExitCode == 0 {
				t.Fatalf("at the limit: %+v", p)
			}
			if !strings.Contains(p.Halt, "restarted 4 times within 1m0s") || !strings.Contains(p.Halt, tc.kind) {
				t.Fatalf("halt without a readable reason: %q", p.Halt)
			}
			st := tc.st.Clone()
			applyPlan(st, p, proc.Identity{PID: 1}, true, t0)
			if st.Halted != p.Halt || st.LastExit != CauseRestartLoop || st.NoProgress != tc.st.NoProgress {
				t.Fatalf("applyPlan wrote %+v", st)
			}
		})
	}
	// A stop is a stop, whatever the count; the breaker turned off never
	// stops anything.
	if p := Decide(recent(99, exited(0, time.Second)), session(nil), pol); p.Cause != CauseUserExit {
		t.Fatalf("the user's own exit became %+v", p)
	}
	off := pol
	off.MaxRestarts = 0
	if p := Decide(recent(99, killed(exited(143, time.Second))), session(nil), off); p.Action == Stop {
		t.Fatalf("the breaker turned off stopped: %+v", p)
	}
}

func TestWithinKeepsTheWindow(t *testing.T) {
	ts := []time.Time{t0, t0.Add(time.Minute), t0.Add(2 * time.Minute)}
	if got := within(ts, t0.Add(2*time.Minute), time.Minute); len(got) != 2 || !got[0].Equal(t0.Add(time.Minute)) {
		t.Fatalf("within = %v", got)
	}
	if got := within([]time.Time{t0}, t0, 0); len(got) != 0 {
		t.Fatalf("a zero window kept %v", got)
	}
}

// The progress breaker counts only what applies: an agent is expected to
// activate its session after a handoff only when its CLI does so at all.
func TestAwaitsActivationOnlyWhereTheProfileActivates(t *testing.T) {
	handoff := Plan{Action: Fresh, Prompt: "carry on"}
	stuck := session(func(st *state.State) { st.NoProgress = 2 })
	for _, tc := range []struct {
		p    Profile
		plan Plan
		st   *state.State
		want bool
	}{
		{Claude, handoff, nil, true},
		{Claude, Plan{Action: Resume, SessionID: "c"}, stuck, true},
		{Claude, Plan{Action: Fresh}, session(nil), false},
		{Codex, handoff, nil, false},
		{Codex, Plan{Action: Resume, SessionID: "c"}, stuck, false},
		{Gemini, handoff, stuck, false},
		{Generic, handoff, nil, false},
	} {
		if got := awaitsActivation(tc.p, tc.plan, tc.st); got != tc.want {
			t.Errorf("%s %v (no progress %v): %v, want %v", tc.p.Name, tc.plan, tc.st != nil && tc.st.NoProgress > 0, got, tc.want)
		}
	}
}

// A conversation id that is not one the CLI takes is never given to it
// (an audit of issue 16: a garbled sessionId, or one starting with "-",
// went to `codex resume <id>` and `--resume <id>`, where the CLI reads it
// as an option). The restart, and the pane's start, begin a new
// conversation instead, and the reason says which id and why; a valid id
// is resumed as before.
func TestResumeOfAMalformedIDStartsFresh(t *testing.T) {
	const good = "019a4f3c-7b2e-7c41-9d2a-5e6f7a8b9c0d"
	crash := exited(1, time.Hour)
	for _, tc := range []struct {
		name string
		prof Profile
		id   string
		want Action // of the start the plan leads to
		why  string // in its reason
	}{
		{"claude, a UUID", Claude, good, Resume, ""},
		{"codex, a UUID", Codex, good, Resume, ""},
		{"gemini, a UUID", Gemini, good, Resume, ""},
		{"claude, an option", Claude, "--dangerously-skip-permissions", Fresh, `starts with "-"`},
		{"codex, an option", Codex, "-c", Fresh, `starts with "-"`},
		{"gemini, garbled", Gemini, "0a1b\x1b[2J", Fresh, "not in the form of a gemini conversation id"},
		{"codex, a UUID cut short", Codex, good[:30], Fresh, "not in the form of a codex conversation id"},
		{"claude, a UUID and more", Claude, good + " --model x", Fresh, "not in the form of a claude conversation id"},
		{"a profile without ValidID, an option", OpenCode, "-x", Fresh, `starts with "-"`},
		{"a profile without ValidID, a space", OpenCode, "ses 1", Fresh, "space or a control character"},
		{"a profile without ValidID, its own form", OpenCode, "ses_01JABC", Resume, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := session(func(st *state.State) { st.SessionID = tc.id })
			for _, p := range []Plan{Decide(crash, st, DefaultPolicy), paneStartPlan(st, false)} {
				got, why := resumable(p, tc.prof)
				next := got.leadsTo()
				if next.Action != tc.want {
					t.Fatalf("%s → %s, want %s", p, got, tc.want)
				}
				if tc.want == Resume {
					if why != "" || next.SessionID != tc.id {
						t.Fatalf("a valid id: %s, why %q", got, why)
					}
					continue
				}
				if next.SessionID != "" || !strings.Contains(why, tc.why) || !strings.Contains(next.Reason, why) ||
					!strings.Contains(next.Reason, "a new conversation") {
					t.Fatalf("%s → %s (why %q), want a fresh start that says %q", p, got, why, tc.why)
				}
				if strings.ContainsAny(why, "\x1b") {
					t.Fatalf("the reason carries the id's escape sequence to the terminal: %q", why)
				}
				if got.Cause != p.Cause {
					t.Fatalf("the cause changed: %q → %q", p.Cause, got.Cause)
				}
				// The forgotten id is not tried again: applied, the state has none.
				applied := *st
				applyPlan(&applied, got, proc.Identity{PID: 1}, true, t0)
				if applied.SessionID != "" {
					t.Fatalf("the state keeps the bad id %q", applied.SessionID)
				}
				if args := tc.prof.Args(nil, Invocation{}, got, false); strings.Contains(strings.Join(args, " "), tc.id) {
					t.Fatalf("the agent is given the bad id: %q", args)
				}
			}
		})
	}
}
