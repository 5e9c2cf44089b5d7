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
	line := func(text string, before time.Duration) child.TypedLine {
		return child.TypedLine{Text: text, At: ended.Add(-before), Known: true}
	}
	for _, tc := range []struct {
		name     string
		typed    child.Typed
		st       *state.State
		prof     Profile
		prompts  []string
		commands []string
		tail     string
		unknown  int
	}{
		{"after the last prompt noted: carried", child.Typed{Lines: []child.TypedLine{line("the next step", 100*time.Millisecond)}}, noted, Claude,
			[]string{"the next step"}, nil, "", 0},
		{"before it: seen", child.Typed{Lines: []child.TypedLine{line("answered already", 4*time.Second)}}, noted, Claude, nil, nil, "", 0},
		{"no prompt ever noted: carried", child.Typed{Lines: []child.TypedLine{line("the first words", time.Second)}}, session(nil), Claude,
			[]string{"the first words"}, nil, "", 0},
		{"long before the end with no prompt noted: a dialog's answer", child.Typed{Lines: []child.TypedLine{line("no, use the other file", 6*time.Second)}},
			session(nil), Claude, nil, nil, "", 0},
		{"commands and bash-mode lines are not prompts", child.Typed{Lines: []child.TypedLine{line("/model", time.Second), line("!make test", time.Second), line("#a note", time.Second)}},
			noted, Claude, []string{"#a note"}, []string{"/model", "!make test"}, "", 0},
		{"one character: a dialog's answer", child.Typed{Lines: []child.TypedLine{line("1", time.Second), line(" ", time.Second)}}, noted, Claude, nil, nil, "", 0},
		{"superclaude's own typing", child.Typed{Lines: []child.TypedLine{{Text: "continue", At: ended.Add(-time.Second), Known: true, Ours: true}}}, noted, Claude, nil, nil, "", 0},
		{"noted after the state was read: carried as pending already", child.Typed{Lines: []child.TypedLine{line("raced", time.Second)}},
			session(func(st *state.State) {
				st.PendingPrompts = []state.Prompt{{ID: "p", At: ended.Add(-500 * time.Millisecond), Text: "raced"}}
			}), Claude, nil, nil, "", 0},
		{"two Enters within the hook's time: the one after the line it noted was not", child.Typed{Lines: []child.TypedLine{
			line("noted", 120*time.Millisecond), line("right behind it", 100*time.Millisecond)}},
			session(func(st *state.State) {
				st.LastPromptAt = ended.Add(-80 * time.Millisecond)
				st.PendingPrompts = []state.Prompt{{ID: "p", At: st.LastPromptAt, Text: "noted"}}
			}), Claude, []string{"right behind it"}, nil, "", 0},
		{"the unfinished line is given back", child.Typed{Tail: "half a\nline", TailKnown: true}, noted, Claude, nil, nil, "half a\nline", 0},
		{"words not followed are counted", child.Typed{Lines: []child.TypedLine{{Text: "?", At: ended.Add(-time.Second)}}, Tail: "x", TailKnown: false},
			noted, Claude, nil, nil, "", 2},
		{"a profile whose agent notes no prompts reads nothing back", child.Typed{Lines: []child.TypedLine{line("the next step", time.Second)}, Tail: "half", TailKnown: true},
			session(nil), Codex, nil, nil, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rb := readBackTyped(tc.typed, tc.st, tc.prof, ended, 5*time.Second)
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
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	var screen syncBuffer
	go io.Copy(&screen, master)
	sock, _, store := socketAndStore(t)
	// An agent that never reads its terminal; started with a first
	// prompt, it says so.
	script := `stty raw -echo; if [ -n "$1" ]; then printf 'FIRST PROMPT: %s\r\n' "$1" | tr '\n' '~'; fi; exec sleep 60`
	prof := Profile{Name: "typist", TakesAsPrompt: claude.TakesAsPrompt,
		Prompt: func(args []string, prompt string) []string { return append(args, prompt) }}
	tt := child.NewTerminal(tty, tty)
	s, err := Start(context.Background(), Config{Profile: prof, Command: "/bin/sh", Args: []string{"-c", script, "typist"},
		Terminal: tt, Store: store, Socket: sock, Grace: time.Second, CrashDelay: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Stop(true); s.Wait() }()
	st := waitStatus(t, s, "the agent in its session", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	first := s.currentAgent()
	waitUntil(t, "the agent to read keys", first.ReadsKeys)

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

	defer func() {
		if t.Failed() {
			t.Logf("screen: %q", screen.String())
		}
	}()
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
