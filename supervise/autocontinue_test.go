package supervise

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/state"
)

// Claude Code's own auto-continuation after a usage limit is a prompt it
// queues itself (meta, its hook source "system", docs/claude-code-limits.md
// §10). Its UserPromptSubmit is not the person's: it is neither carried
// over a restart as their words nor taken for the person going on after
// the reset — +why says claude went on. A prompt the person typed after
// the reset still is both. (An audit of issue 18: both were the person's.)
func TestClaudesOwnContinuationIsNotThePersons(t *testing.T) {
	reset := time.Now().Add(-time.Minute)
	for _, tc := range []struct {
		name, source, prompt string
		persons              bool
	}{
		{"claude's continuation, source system", "system", "Continue with the task.", false},
		{"claude's continuation text, no source (an older claude)", "", claude.AutoContinueText + " when the limit was reached; do not repeat work that is already complete.", false},
		{"a scheduled wakeup", "schedule_wakeup", "check the build", false},
		{"the person's prompt", "user", "now the next step", true},
		{"the person's prompt, no source", "", "now the next step", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, err := state.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			me := (&Supervisor{}).self
			if _, err := store.Activate("S", "implement", state.Caller{Owner: me}); err != nil {
				t.Fatal(err)
			}
			store.Update("S", "a limit that has reset", func(st *state.State) error {
				st.SessionID = "0c0c0c0c-0000-4000-8000-000000000001"
				st.Limit, st.LimitedUntil, st.LimitContinue = "5-hour usage limit", reset, state.LimitByClaude
				return nil
			})
			st, _ := store.Load("S")
			in := claude.HookInput{HookEventName: "UserPromptSubmit", PromptID: "p9", Prompt: tc.prompt, Source: tc.source}
			if _, err := claude.Hook("user-prompt-submit", in, &state.Session{Name: "S", Dir: filepath.Join(store.Root, "S"), State: st, Store: store}, claude.Policy{}); err != nil {
				t.Fatal(err)
			}
			st, _ = store.Load("S")
			if st.LastPromptID != "p9" {
				t.Errorf("the prompt is not the last one submitted (its turn's end answers those before it): %q", st.LastPromptID)
			}
			who := wentOnWithout(st)
			p, lost, _ := carry(Decide(Exit{Exit: exited(143, time.Hour).Exit, KilledByUs: true}, st, DefaultPolicy), st, Claude, nil)
			carried := len(p.leadsTo().Carried) == 1 && len(lost) == 0
			if tc.persons {
				if !strings.HasPrefix(who, "the person went on") || !carried {
					t.Fatalf("the person's prompt: who went on %q, carried %v", who, carried)
				}
				return
			}
			if len(st.PendingPrompts) != 0 || strings.HasPrefix(who, "the person") || !strings.Contains(who, "claude continued by itself") {
				t.Fatalf("claude's own prompt was taken for the person's: pending %+v, +why %q", st.PendingPrompts, who)
			}
			if len(p.leadsTo().Carried) != 0 || len(lost) != 0 {
				t.Fatalf("claude's own prompt would be carried as the person's: %+v, lost %+v", p.leadsTo().Carried, lost)
			}
		})
	}
}
