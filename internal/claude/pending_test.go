package claude

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

func submit(t *testing.T, id, prompt string) HookInput {
	t.Helper()
	var in HookInput
	if err := json.Unmarshal(sample(t, "hook-UserPromptSubmit.json"), &in); err != nil {
		t.Fatal(err)
	}
	in.PromptID, in.Prompt = id, prompt
	return in
}

func stop(t *testing.T, id string) HookInput {
	t.Helper()
	var in HookInput
	if err := json.Unmarshal(sample(t, "hook-Stop.json"), &in); err != nil {
		t.Fatal(err)
	}
	in.PromptID = id
	return in
}

func texts(st *state.State) []string {
	var out []string
	for _, p := range st.PendingPrompts {
		out = append(out, p.Text)
	}
	return out
}

// The real payloads name the prompt the same way at both ends of a turn.
func TestPromptIDOfTheRealPayloads(t *testing.T) {
	var sub, end HookInput
	json.Unmarshal(sample(t, "hook-UserPromptSubmit.json"), &sub)
	json.Unmarshal(sample(t, "hook-Stop.json"), &end)
	if sub.PromptID == "" || sub.PromptID != end.PromptID || sub.Prompt != "run echo please" {
		t.Fatalf("submit %q %q, stop %q", sub.PromptID, sub.Prompt, end.PromptID)
	}
}

// A prompt stays pending until the Stop of its own turn, or of a later
// one; a queued prompt submitted while a turn runs outlives that turn's
// Stop; superclaude's own prompts are never the person's.
func TestPendingPrompts(t *testing.T) {
	at := func(s int) time.Time { return now.Add(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name string
		run  func(st *state.State)
		want []string
	}{
		{"a prompt is pending until its turn ends", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "do it"), at(1), "sup")
		}, []string{"do it"}},
		{"its Stop answers it", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "do it"), at(1), "sup")
			AnswerPrompt(st, stop(t, "p1"))
		}, nil},
		{"a queued prompt outlives the Stop of the turn before it", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "first"), at(1), "sup")
			RecordPrompt(st, submit(t, "p2", "queued"), at(2), "sup")
			AnswerPrompt(st, stop(t, "p1"))
		}, []string{"queued"}},
		{"a later turn's Stop answers the earlier ones", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "lost at a limit"), at(1), "sup")
			RecordPrompt(st, submit(t, "p2", "continue"), at(2), "sup")
			AnswerPrompt(st, stop(t, "p2"))
		}, nil},
		{"a Stop naming no known prompt drops nothing", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "keep me"), at(1), "sup")
			AnswerPrompt(st, stop(t, "unknown"))
			AnswerPrompt(st, stop(t, ""))
		}, []string{"keep me"}},
		{"the restart prompt is superclaude's, and its turn answers what it carried", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "carried"), at(1), "sup")
			RecordPrompt(st, submit(t, "p2", ContinuePrompt("X", "implement", "")+"\n\n"+state.CarryText(st.PendingPrompts)), at(2), "sup")
			if got := texts(st); len(got) != 1 || got[0] != "carried" {
				t.Fatalf("the restart prompt was taken for the person's: %q", got)
			}
			AnswerPrompt(st, stop(t, "p2"))
		}, nil},
		{"carried words alone (a resume) are superclaude's too", func(st *state.State) {
			RecordPrompt(st, submit(t, "p1", "carried"), at(1), "sup")
			RecordPrompt(st, submit(t, "p2", state.CarryText(st.PendingPrompts)), at(2), "sup")
		}, []string{"carried"}},
		{"at most MaxPendingPrompts, the newest", func(st *state.State) {
			for i := 0; i < MaxPendingPrompts+3; i++ {
				RecordPrompt(st, submit(t, "", strings.Repeat("x", i+1)), at(i), "sup")
			}
			if len(st.PendingPrompts) != MaxPendingPrompts || st.PendingPrompts[0].Text != strings.Repeat("x", 4) {
				t.Fatalf("kept %d, first %q", len(st.PendingPrompts), st.PendingPrompts[0].Text)
			}
			st.PendingPrompts = nil
		}, nil},
		{"an unreadable input notes nothing", func(st *state.State) {
			in := submit(t, "p1", "x")
			in.Unreadable = "it is not valid JSON"
			RecordPrompt(st, in, at(1), "sup")
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := base()
			tc.run(st)
			got := texts(st)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("pending %q, want %q", got, tc.want)
			}
		})
	}
}

// A prompt longer than MaxPromptBytes is kept cut, never dropped, and
// the state file it lands in stays well under its 1 MiB limit.
func TestPendingPromptTooLongIsCut(t *testing.T) {
	st := base()
	for i := 0; i < MaxPendingPrompts; i++ {
		RecordPrompt(st, submit(t, "p", strings.Repeat("é", MaxPromptBytes)), now, "sup")
	}
	p := st.PendingPrompts[0].Text
	if len(p) > MaxPromptBytes+10 || !strings.HasSuffix(p, " […]") || !strings.HasPrefix(p, "é") {
		t.Fatalf("cut to %d bytes, ends %q", len(p), p[len(p)-8:])
	}
	b, _ := st.MarshalJSON()
	if len(b) > 1<<20 {
		t.Fatalf("state of %d bytes", len(b))
	}
}

// The hooks record and answer under the session's lock, in the file.
func TestHookNotesAndAnswersPrompts(t *testing.T) {
	s, _ := tickStore(t)
	if _, err := Hook("user-prompt-submit", submit(t, "p1", "and now the next step"), loadSession(t, s), Policy{}); err != nil {
		t.Fatal(err)
	}
	if got := texts(loadSession(t, s).State); len(got) != 1 || got[0] != "and now the next step" {
		t.Fatalf("pending after submit: %q", got)
	}
	if _, err := Hook("stop", stop(t, "p1"), loadSession(t, s), Policy{}); err != nil {
		t.Fatal(err)
	}
	if got := texts(loadSession(t, s).State); len(got) != 0 {
		t.Fatalf("pending after stop: %q", got)
	}
}

// A line claude runs no prompt hook for — a command, a line of its bash
// mode — is not a prompt to carry over a restart (e2e/lab_typing_test.go);
// anything else, "#" lines and paths included, is.
func TestTakesAsPrompt(t *testing.T) {
	for line, want := range map[string]bool{
		"fix the tests":              true,
		"#remember this":             true,
		"/model":                     false,
		"/model opus":                false,
		"  /help":                    false,
		"/superclaude:session start": false,
		"/compact keep the plan":     false,
		"!make test":                 false,
		"/etc/hosts is wrong":        true,
		"/ what is this":             true,
		"/":                          true,
	} {
		if got := TakesAsPrompt(line); got != want {
			t.Errorf("TakesAsPrompt(%q) = %v, want %v", line, got, want)
		}
	}
}
