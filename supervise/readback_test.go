package supervise

import (
	"context"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// What was relayed to an agent that ended is read back against the
// session: a line whose Enter reached it after the last prompt it noted,
// a moment before it ended, is one it never took (issue 18: the prompt
// typed at the instant of a restart) and is carried; one before that
// prompt was seen; a command is not given again; the unfinished line is
// given back; what cannot be read back is counted, to be said.
func TestReadBackCarriesOnlyWhatTheAgentNeverTook(t *testing.T) {
	ended := t0.Add(time.Minute)
	noted := session(func(st *state.State) { st.LastPromptAt = ended.Add(-3 * time.Second) })
	// The run was bound to a session left 1 s before the end, its hook
	// having noted the line that switched (its Enter 2 s before the end),
	// and then to one activated then, which noted nothing.
	left := session(func(st *state.State) {
		st.LastPromptAt = ended.Add(-2*time.Second + 40*time.Millisecond)
		st.PendingPrompts = []state.Prompt{{ID: "s", At: st.LastPromptAt, Text: "work on X now"}}
	})
	leftCommand := session(func(st *state.State) { st.LastPromptAt = ended.Add(-2*time.Second + 40*time.Millisecond) })
	switched := session(func(st *state.State) { st.ActivatedAt = ended.Add(-time.Second) })
	boundTo := func(sts ...*state.State) []*state.State { return sts }
	line := func(text string, before time.Duration) child.TypedLine {
		return child.TypedLine{Text: text, At: ended.Add(-before), Known: true}
	}
	for _, tc := range []struct {
		name     string
		typed    child.Typed
		bound    []*state.State
		prof     Profile
		prompts  []string
		commands []string
		tail     string
		unknown  int
	}{
		{"after the last prompt noted: carried", child.Typed{Lines: []child.TypedLine{line("the next step", 100*time.Millisecond)}}, boundTo(noted), Claude,
			[]string{"the next step"}, nil, "", 0},
		{"before it: seen", child.Typed{Lines: []child.TypedLine{line("answered already", 4*time.Second)}}, boundTo(noted), Claude, nil, nil, "", 0},
		{"no prompt ever noted: carried", child.Typed{Lines: []child.TypedLine{line("the first words", time.Second)}}, boundTo(session(nil)), Claude,
			[]string{"the first words"}, nil, "", 0},
		{"long before the end with no prompt noted: a dialog's answer", child.Typed{Lines: []child.TypedLine{line("no, use the other file", 6*time.Second)}},
			boundTo(session(nil)), Claude, nil, nil, "", 0},
		{"commands and bash-mode lines are not prompts", child.Typed{Lines: []child.TypedLine{line("/model", time.Second), line("!make test", time.Second), line("#a note", time.Second)}},
			boundTo(noted), Claude, []string{"#a note"}, []string{"/model", "!make test"}, "", 0},
		{"one character: a dialog's answer", child.Typed{Lines: []child.TypedLine{line("1", time.Second), line(" ", time.Second)}}, boundTo(noted), Claude, nil, nil, "", 0},
		{"superclaude's own typing", child.Typed{Lines: []child.TypedLine{{Text: "continue", At: ended.Add(-time.Second), Known: true, Ours: true}}}, boundTo(noted), Claude, nil, nil, "", 0},
		{"noted after the state was read: carried as pending already", child.Typed{Lines: []child.TypedLine{line("raced", time.Second)}},
			boundTo(session(func(st *state.State) {
				st.PendingPrompts = []state.Prompt{{ID: "p", At: ended.Add(-500 * time.Millisecond), Text: "raced"}}
			})), Claude, nil, nil, "", 0},
		{"two Enters within the hook's time: the one after the line it noted was not", child.Typed{Lines: []child.TypedLine{
			line("noted", 120*time.Millisecond), line("right behind it", 100*time.Millisecond)}},
			boundTo(session(func(st *state.State) {
				st.LastPromptAt = ended.Add(-80 * time.Millisecond)
				st.PendingPrompts = []state.Prompt{{ID: "p", At: st.LastPromptAt, Text: "noted"}}
			})), Claude, []string{"right behind it"}, nil, "", 0},
		{"the unfinished line is given back", child.Typed{Tail: "half a\nline", TailKnown: true}, boundTo(noted), Claude, nil, nil, "half a\nline", 0},
		{"words not followed are counted", child.Typed{Lines: []child.TypedLine{{Text: "?", At: ended.Add(-time.Second)}}, Tail: "x", TailKnown: false},
			boundTo(noted), Claude, nil, nil, "", 2},
		// The line switched the run's session (the agent ran `superclaude
		// +session activate X` for it): the session bound when it was
		// typed noted it, the one bound at the end never did.
		{"noted by the session bound when it was typed, then the run switched session: not carried",
			child.Typed{Lines: []child.TypedLine{line("work on X now", 2*time.Second)}}, boundTo(left, switched), Claude, nil, nil, "", 0},
		{"a command noted by the session left: not said", child.Typed{Lines: []child.TypedLine{line("/superclaude:session activate X", 2*time.Second)}},
			boundTo(leftCommand, switched), Claude, nil, nil, "", 0},
		{"typed after the switch, noted by neither: carried", child.Typed{Lines: []child.TypedLine{
			line("work on X now", 2*time.Second), line("and the next step", 100*time.Millisecond)}},
			boundTo(left, switched), Claude, []string{"and the next step"}, nil, "", 0},
		{"noted by the session left after the run left it — another agent's prompt: carried", child.Typed{Lines: []child.TypedLine{
			line("after the switch", 500*time.Millisecond)}},
			boundTo(session(func(st *state.State) { st.LastPromptAt = ended.Add(-200 * time.Millisecond) }), switched),
			Claude, []string{"after the switch"}, nil, "", 0},
		{"a profile whose agent notes no prompts reads nothing back", child.Typed{Lines: []child.TypedLine{line("the next step", time.Second)}, Tail: "half", TailKnown: true},
			boundTo(session(nil)), Codex, nil, nil, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rb := readBackTyped(tc.typed, tc.bound, tc.prof, ended, 5*time.Second)
			var prompts []string
			for _, p := range rb.Prompts {
				if !p.Typed {
					t.Errorf("%q is not marked typed", p.Text)
				}
				prompts = append(prompts, p.Text)
			}
			if !slices.Equal(prompts, tc.prompts) || !slices.Equal(rb.Commands, tc.commands) || rb.Tail != tc.tail || rb.Unknown != tc.unknown {
				t.Fatalf("read back %+v; want prompts %q commands %q tail %q unknown %d", rb, tc.prompts, tc.commands, tc.tail, tc.unknown)
			}
		})
	}
}

// A line the agent never took goes where the profile can put it: into
// the next agent's first prompt, marked typed, kept pending until that
// prompt's turn answers it; typed into the next agent for a profile that
// takes no first prompt; said lost when no agent follows.
func TestLinesNeverTakenAreCarriedOrTypedAgain(t *testing.T) {
	rb := readBack{Prompts: []state.Prompt{{At: t0, Text: "typed at the restart", Typed: true}}}
	restart := Plan{Action: Resume, SessionID: "conv-1"}
	toCarry, retype := splitTyped(restart, Claude, rb)
	p, lost, _ := carry(restart, session(pending("noted")), Claude, nil, toCarry...)
	if len(retype) != 0 || len(lost) != 0 || len(p.Carried) != 2 || p.Carried[1].Text != "typed at the restart" {
		t.Fatalf("claude: carried %+v, lost %+v, typed again %+v", p.Carried, lost, retype)
	}
	if args := strings.Join(Claude.Args(nil, Invocation{}, p, false), " "); !strings.Contains(args, "<<<\ntyped at the restart\n>>>") {
		t.Fatalf("the next claude's arguments do not carry it verbatim: %q", args)
	}
	st := session(pending("noted"))
	applyPlan(st, p, proc.Identity{PID: 4242}, true, t0)
	applyPlan(st, p, proc.Identity{PID: 4242}, true, t0) // a second decision keeps one copy
	if len(st.PendingPrompts) != 2 || !st.PendingPrompts[1].Typed {
		t.Fatalf("pending after the decision: %+v", st.PendingPrompts)
	}

	toCarry, retype = splitTyped(restart, Aider, rb)
	p, lost, _ = carry(restart, nil, Aider, nil, toCarry...)
	if len(p.Carried) != 0 || len(lost) != 0 || len(retype) != 1 {
		t.Fatalf("aider: carried %+v, lost %+v, typed again %+v", p.Carried, lost, retype)
	}

	halt := Plan{Action: Stop, Cause: CauseNoProgress, Halt: "no progress"}
	for _, prof := range []Profile{Claude, Aider} {
		toCarry, retype = splitTyped(halt, prof, rb)
		if _, lost, _ = carry(halt, nil, prof, nil, toCarry...); len(lost) != 1 || len(retype) != 0 {
			t.Fatalf("%s halted: lost %+v, typed again %+v", prof.Name, lost, retype)
		}
	}
}

// TestALineTypedAsTheAgentIsKilledReachesTheNextOne: the person types a
// line and Enter, and the agent is killed before it reads them — its
// prompt hook never runs. The next agent's first prompt carries the line,
// verbatim, as the person's; the line they were still typing waits in
// the next agent's input, and the terminal says so. A line before the
// last prompt the agent noted is not carried again.
func TestALineTypedAsTheAgentIsKilledReachesTheNextOne(t *testing.T) {
	master, screen, store, s, st, first := startTypist(t)

	master.Write([]byte("seen before\r"))
	waitUntil(t, "the line to be relayed", func() bool { return len(first.Typed().Lines) == 1 })
	time.Sleep(10 * time.Millisecond)
	if _, err := store.Update(st.Session, "test: the prompt hook", func(st *state.State) error {
		st.LastPromptID, st.LastPromptAt = "p1", time.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	master.Write([]byte("the next step\r"))
	master.Write([]byte("and half a line"))
	waitUntil(t, "the keys to be relayed", func() bool { return first.Typed().Tail == "and half a line" })
	syscall.Kill(st.AgentPID, syscall.SIGKILL)

	waitUntil(t, "the next agent to be given the unfinished line", func() bool {
		a := s.currentAgent()
		return a != nil && a != first && a.Typed().Tail == "and half a line"
	})
	out := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	_, prompt, _ := strings.Cut(out, "FIRST PROMPT: ")
	prompt, _, _ = strings.Cut(prompt, "\n")
	if !strings.Contains(prompt, "<<<~the next step~>>>") || !strings.Contains(prompt, state.CarriedIntro) || strings.Contains(prompt, "seen before") {
		t.Fatalf("the next agent's first prompt: %q", prompt)
	}
	if !strings.Contains(out, `waits in the new one's input box: "and half a line"`) {
		t.Fatalf("the terminal does not say where the unfinished line went:\n%s", out)
	}
	evs, _ := store.Events(st.Session)
	var carried string
	for _, ev := range evs {
		if ev.Kind == "prompt-carried" {
			carried = ev.Reason
		}
	}
	if !strings.Contains(carried, `"the next step" (typed, and not yet taken by the agent when it ended)`) {
		t.Fatalf("+why: %q", carried)
	}

	// Not answered yet, it is carried again over the next restart: it is
	// the person's, though no hook of this supervisor's agents noted it.
	second := s.currentAgent()
	syscall.Kill(second.PID(), syscall.SIGKILL)
	waitUntil(t, "a third agent", func() bool { a := s.currentAgent(); return a != nil && a != first && a != second })
	waitUntil(t, "the third agent's first prompt", func() bool { return strings.Count(screen.String(), "FIRST PROMPT: ") == 2 })
	if n := strings.Count(screen.String(), "<<<~the next step~>>>"); n != 2 {
		t.Fatalf("the line was carried %d times over two restarts; want 2", n)
	}
}

// startTypist starts a supervisor, in a store of its own, of an agent
// that never reads its terminal and says what first prompt it was
// started with ("FIRST PROMPT: …", newlines as ~), on a pty whose
// master the test types into and whose screen it reads; it returns once
// the agent, first, reads keys in its session, st says.
func startTypist(t *testing.T) (master io.Writer, screen *syncBuffer, store *state.Store, s *Supervisor, st Status, first *child.Agent) {
	t.Helper()
	pm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pm.Close(); tty.Close() })
	pty.Setsize(pm, &pty.Winsize{Rows: 24, Cols: 80})
	screen = new(syncBuffer)
	go io.Copy(screen, pm)
	sock, _, store := socketAndStore(t)
	script := `stty raw -echo; if [ -n "$1" ]; then printf 'FIRST PROMPT: %s\r\n' "$1" | tr '\n' '~'; fi; exec sleep 60`
	prof := Profile{Name: "typist", TakesAsPrompt: claude.TakesAsPrompt,
		Prompt: func(args []string, prompt string) []string { return append(args, prompt) }}
	s, err = Start(context.Background(), Config{Profile: prof, Command: "/bin/sh", Args: []string{"-c", script, "typist"},
		Terminal: child.NewTerminal(tty, tty), Store: store, Socket: sock, Grace: time.Second, CrashDelay: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop(true)
		s.Wait()
		if t.Failed() {
			t.Logf("screen: %q", screen.String())
		}
	})
	st = waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	first = s.currentAgent()
	waitUntil(t, "the agent to read keys", first.ReadsKeys)
	return pm, screen, store, s, st, first
}

// TestALineThatSwitchedSessionsIsNotCarriedTwice: the person types a
// line for which the agent activates another session, and the agent is
// killed a moment later. The session bound when the line was typed noted
// it (its prompt hook ran); the one bound at the end never did. The line
// is not carried into the next agent as not yet taken — it would be acted
// on twice — while a line typed after the switch, noted by neither, is.
func TestALineThatSwitchedSessionsIsNotCarriedTwice(t *testing.T) {
	master, screen, store, s, st, first := startTypist(t)

	master.Write([]byte("work on X now\r"))
	waitUntil(t, "the line to be relayed", func() bool { return len(first.Typed().Lines) == 1 })
	time.Sleep(10 * time.Millisecond)
	if _, err := store.Update(st.Session, "test: the prompt hook", func(st *state.State) error {
		claude.RecordPrompt(st, claude.HookInput{PromptID: "p1", Prompt: "work on X now", Source: "user"}, time.Now(), s.self.String())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Activate("X", "implement", state.Caller{Owner: s.self, Pane: s.cfg.Pane}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s, "the run in X", func(st Status) bool { return st.Session == "X" })
	master.Write([]byte("and the next step\r"))
	waitUntil(t, "the line to be relayed", func() bool { return len(first.Typed().Lines) == 2 })
	syscall.Kill(st.AgentPID, syscall.SIGKILL)

	waitUntil(t, "the next agent's first prompt", func() bool {
		_, p, _ := strings.Cut(screen.String(), "FIRST PROMPT: ")
		return strings.Contains(p, "\r")
	})
	_, prompt, _ := strings.Cut(screen.String(), "FIRST PROMPT: ")
	prompt, _, _ = strings.Cut(prompt, "\r")
	if !strings.Contains(prompt, "<<<~and the next step~>>>") || strings.Contains(prompt, "work on X now") {
		t.Fatalf("the next agent's first prompt: %q", prompt)
	}
}
