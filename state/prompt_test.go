package state

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// What a restarted agent is told of each carried prompt is what happened
// to it. The notify helper's text said every prompt "was not answered",
// untrue of one whose own turn asked for the restart — and it handed
// that prompt on as words to carry out again, so a prompt that asked for
// a restart asked for it again in the fresh agent, for ever. Such a
// prompt is quoted as begun, the restart done; no line of it stands
// alone as an instruction. A prompt no turn had finished is handed on
// verbatim, to answer.
func TestCarryTextTellsWhatHappenedToEachPrompt(t *testing.T) {
	begun := Prompt{Text: "run: superclaude +session restart\nthen run the tests", TurnAskedRestart: true}
	open := Prompt{Text: "and now the next step"}
	for _, tc := range []struct {
		name      string
		prompts   []Prompt
		want, not []string
	}{
		{"a prompt no turn finished: verbatim, to answer", []Prompt{open},
			[]string{CarriedIntro + "\n", "<<<\nand now the next step\n>>>", "had not finished answering it (it may not have begun)", "answer it once"},
			[]string{"asked superclaude for this restart", "was not answered"}},
		{"a prompt whose turn asked for the restart: quoted, begun, the restart done", []Prompt{begun},
			[]string{CarriedIntro + "\n", "> run: superclaude +session restart\n> then run the tests",
				"was answering the person's prompt quoted below when it asked superclaude for this restart",
				"do not ask for another", "still to do"},
			[]string{"<<<", "was not answered", "had not finished"}},
		{"both: the begun one first, then the one to answer", []Prompt{begun, open},
			[]string{"> then run the tests\n\nJust before superclaude restarted you", "<<<\nand now the next step\n>>>"},
			[]string{"<<<\nrun: superclaude"}},
		{"two to answer", []Prompt{open, {Text: "and another"}},
			[]string{"the prompts below, oldest first", "answer each once", "<<<\nand another\n>>>"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CarryText(tc.prompts)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("says %q:\n%s", n, got)
				}
			}
			for _, line := range strings.Split(got, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "run: superclaude +session restart") {
					t.Errorf("the prompt that asked for the restart stands on a line of its own, to be carried out again:\n%s", got)
				}
			}
		})
	}
	if CarryText(nil) != "" {
		t.Error("no prompts: text")
	}
}

// The agent's own turn asks for the restart: the person's prompts
// pending then are marked as that turn's, under the state's lock; a
// restart asked for from elsewhere marks nothing.
func TestRequestRestartByTheAgentsTurnMarksItsPrompts(t *testing.T) {
	for _, byTurn := range []bool{true, false} {
		s := newStore(t)
		me, _ := proc.Self()
		if _, err := s.Activate("sess", "implement", Caller{Owner: me}); err != nil {
			t.Fatal(err)
		}
		s.Update("sess", "prompts", func(st *State) error {
			st.PendingPrompts = []Prompt{{ID: "a", At: t0, Text: "restart yourself"}, {ID: "b", At: t0.Add(time.Second), Text: "queued"}}
			return nil
		})
		st, err := s.RequestRestart("sess", byTurn, testPrompt)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.PendingPrompts) != 2 {
			t.Fatalf("pending: %+v", st.PendingPrompts)
		}
		for _, p := range st.PendingPrompts {
			if p.TurnAskedRestart != byTurn {
				t.Errorf("byTurn %v: %+v", byTurn, p)
			}
		}
		again, _ := s.Load("sess")
		if again.PendingPrompts[0].TurnAskedRestart != byTurn {
			t.Errorf("byTurn %v: the mark was not written: %+v", byTurn, again.PendingPrompts)
		}
	}
}
