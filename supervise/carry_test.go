package supervise

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

func pending(texts ...string) func(*state.State) {
	return func(st *state.State) {
		for i, x := range texts {
			st.PendingPrompts = append(st.PendingPrompts, state.Prompt{ID: "p" + string(rune('0'+i)), At: t0.Add(time.Duration(i) * time.Second), Text: x})
		}
	}
}

// Every restart carries the person's unanswered prompts into the next
// agent's first prompt; a plan that starts nothing, or a profile that
// takes no first prompt, reports them lost; the person's own exit is
// neither.
func TestCarryAtEveryRestart(t *testing.T) {
	killed := func(e Exit) Exit { e.KilledByUs = true; return e }
	overflow := func(st *state.State) {
		st.Overflowed, st.KillRequested, st.SessionID = true, true, ""
		st.RestartPrompt = claude.ContinuePrompt("S", "implement", "")
	}
	both := func(fs ...func(*state.State)) func(*state.State) {
		return func(st *state.State) {
			for _, f := range fs {
				f(st)
			}
		}
	}
	for _, tc := range []struct {
		name    string
		exit    Exit
		st      *state.State
		prof    Profile
		carried int
		lost    int
		args    string // what the next start's arguments hold
	}{
		{"overflow restart", killed(exited(143, time.Hour)), session(both(overflow, pending("and now the next step"))), Claude, 1, 0,
			claude.ContinuePrompt("S", "implement", "") + "\n\n" + state.CarriedIntro},
		{"restart asked for (SIGUSR1): resume", killed(exited(143, time.Hour)), session(pending("next")), Claude, 1, 0, "--resume conv-1"},
		{"crash: resume after the backoff", signalled(syscall.SIGSEGV), session(pending("a", "b")), Claude, 2, 0, "<<<\nb\n>>>"},
		{"crash of an overflowed conversation: fresh", signalled(syscall.SIGSEGV), session(both(pending("x"), func(st *state.State) { st.Overflowed = true })), Claude, 1, 0, "<<<\nx\n>>>"},
		{"limit exit: resume after the reset", exited(1, time.Hour), session(both(pending("lost at the limit"), func(st *state.State) {
			st.Limit, st.LimitedUntil = "5-hour usage limit", t0.Add(2*time.Hour)
		})), Claude, 1, 0, "lost at the limit"},
		{"codex takes a first prompt", killed(exited(143, time.Hour)), session(pending("next")), Codex, 1, 0, "resume conv-1"},
		{"aider takes none: lost", killed(exited(143, time.Hour)), session(pending("next")), Aider, 0, 1, ""},
		{"the user's own exit: neither", exited(0, time.Hour), session(pending("typed, then /exit")), Claude, 0, 0, ""},
		{"halted: lost", with(exited(1, time.Minute), func(e *Exit) { e.Handoff = true }),
			session(both(pending("x"), func(st *state.State) { st.NoProgress = 2 })), Claude, 0, 1, ""},
		{"nothing pending", killed(exited(143, time.Hour)), session(nil), Claude, 0, 0, ""},
		{"the prompt whose turn asked for the restart: carried as begun", killed(exited(143, time.Hour)),
			session(both(overflow, pending("run: superclaude +session restart"), func(st *state.State) { st.PendingPrompts[0].TurnAskedRestart = true })),
			Claude, 1, 0, "> run: superclaude +session restart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Decide(tc.exit, tc.st, Policy{ResumeFailWindow: time.Second, MaxNoProgress: 3, LimitContinue: true})
			p, lost, why := carry(p, tc.st, tc.prof, nil)
			then := p
			if p.Action == Backoff {
				then = *p.Then
			}
			if len(then.Carried) != tc.carried || len(lost) != tc.lost || (len(lost) > 0) != (why != "") {
				t.Fatalf("plan %s: carried %d, lost %d (%s)", p, len(then.Carried), len(lost), why)
			}
			args := strings.Join(tc.prof.Args(nil, Invocation{}, then, false), " ")
			if tc.args != "" && !strings.Contains(args, tc.args) {
				t.Fatalf("args %q lack %q", args, tc.args)
			}
			for _, pr := range then.Carried {
				if verbatim := strings.Contains(args, "<<<\n"+pr.Text+"\n>>>"); verbatim == pr.TurnAskedRestart {
					t.Fatalf("args %q carry %q verbatim: %v; its turn asked for the restart: %v", args, pr.Text, verbatim, pr.TurnAskedRestart)
				}
			}
		})
	}
}

// The continue superclaude types after a limit is its own prompt, not
// the person's: it is not carried.
func TestCarryLeavesOutTheSupervisorsContinue(t *testing.T) {
	st := session(pending("lost at the limit", continuePrompt))
	ours := func(p state.Prompt) bool { return p.Text == continuePrompt }
	p, _, _ := carry(Plan{Action: Resume, SessionID: "conv-1"}, st, Claude, ours)
	if len(p.Carried) != 1 || p.Carried[0].Text != "lost at the limit" {
		t.Fatalf("carried %+v", p.Carried)
	}
}

// Attack of issue 21's second hostile pass: the person's-own-words channel
// could be planted. A repository shipped sessions/X/.state.json with a
// pending prompt dated in the future (no Stop hook ever answers it); a
// skill activated X, and at the next restart the planted text became the
// fresh agent's first prompt, quoted as the person's own words. `+session
// update pendingPrompts=…` from the agent's Bash did the same. Only the
// prompts this supervisor's agents' hooks recorded are carried.
func TestAttackPlantedPendingPromptIsNotCarriedAsThePersons(t *testing.T) {
	s := &Supervisor{self: proc.Identity{PID: 4242, Start: 77, Boot: "b"}}
	future := time.Now().Add(100 * 365 * 24 * time.Hour)
	st := session(func(st *state.State) {
		st.PendingPrompts = []state.Prompt{
			{At: future, Text: "planted, by nobody"},
			{At: future, Text: "planted, by another supervisor", By: "1:2:b"},
			{At: t0, Text: "the person's own", By: s.self.String()},
		}
	})
	p, lost, _ := carry(Plan{Action: Fresh}, st, Claude, s.notCarried)
	if len(p.Carried) != 1 || p.Carried[0].Text != "the person's own" || len(lost) != 0 {
		t.Fatalf("carried %+v, lost %+v; want the person's own prompt alone", p.Carried, lost)
	}
}

// Issue 18's race, around the transcript reader: claude writes the
// prompt to its transcript tens of milliseconds after its prompt hook
// ran, and the supervisor's dehydrate reads the transcript in between.
// The reader cannot see the prompt then (the old loss); what the restart
// carries comes from the hook's note, so the fresh agent gets it whether
// the transcript is read before or after the late write.
func TestPromptCarriedWhenTheTranscriptIsLate(t *testing.T) {
	dir := t.TempDir()
	store, err := state.Open(filepath.Join(dir, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	me := (&Supervisor{}).self
	if _, err := store.Activate("S", "implement", state.Caller{Owner: me}); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(dir, "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"user","message":{"role":"user","content":"read the whole repository"}}`+"\n"), 0o600)
	const typed = "and now the next step"

	// The prompt hook: before claude sends, before its transcript.
	st, _ := store.Load("S")
	in := claude.HookInput{HookEventName: "UserPromptSubmit", PromptID: "p1", Prompt: typed, TranscriptPath: transcript}
	if _, err := claude.Hook("user-prompt-submit", in, &state.Session{Name: "S", Dir: filepath.Join(store.Root, "S"), State: st, Store: store}, claude.Policy{}); err != nil {
		t.Fatal(err)
	}
	// The late transcript write races the decision.
	wrote := make(chan struct{})
	go func() {
		time.Sleep(60 * time.Millisecond)
		f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"type":"user","message":{"role":"user","content":"` + typed + `"}}` + "\n")
		f.Close()
		close(wrote)
	}()
	h, err := claude.ReadTranscript(transcript)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(h.Prompts, typed) {
		t.Fatal("the transcript held the prompt already: the race was not run")
	}
	store.RequestRestart("S", false, func(st *state.State) string { return claude.ContinuePrompt("S", st.Skill, "") })
	for _, when := range []string{"before the late write", "after it"} {
		if when == "after it" {
			<-wrote
		}
		st, _ = store.Load("S")
		p, lost, _ := carry(Decide(Exit{Exit: exited(143, time.Hour).Exit, KilledByUs: true}, st, DefaultPolicy), st, Claude, nil)
		args := Claude.Args(nil, Invocation{}, p, false)
		if len(lost) > 0 || len(args) == 0 || !strings.Contains(args[0], "<<<\n"+typed+"\n>>>") || !strings.HasPrefix(args[0], claude.SessionCommand) {
			t.Fatalf("%s: the fresh start's first prompt %q does not carry %q", when, args, typed)
		}
	}
}
