package supervise

import (
	"fmt"
	"testing"
)

func TestProfilesResumeAndPrompt(t *testing.T) {
	user := []string{"--model", "m"}
	resume := Plan{Action: Resume, SessionID: "ID"}
	prompt := Plan{Action: Fresh, Prompt: "go on"}
	for _, tc := range []struct {
		p              Profile
		resume, prompt []string
		context        ContextSource
	}{
		{Claude, []string{"--model", "m", "--resume", "ID"}, []string{"go on", "--model", "m"}, ContextStatusLine},
		{Codex, []string{"resume", "ID", "--model", "m"}, []string{"--model", "m", "go on"}, ContextNone},
		{Gemini, []string{"--model", "m", "--resume", "ID"}, []string{"--model", "m", "--prompt-interactive", "go on"}, ContextNone},
		{OpenCode, []string{"--model", "m", "-s", "ID"}, []string{"--model", "m", "--prompt", "go on"}, ContextNone},
		{Aider, user, user, ContextNone},
		{Generic, user, user, ContextNone},
	} {
		inv := tc.p.Scan(user)
		if got := tc.p.Args(user, inv, resume, false); fmt.Sprint(got) != fmt.Sprint(tc.resume) {
			t.Errorf("%s resume: %q, want %q", tc.p.Name, got, tc.resume)
		}
		if got := tc.p.Args(user, inv, prompt, false); fmt.Sprint(got) != fmt.Sprint(tc.prompt) {
			t.Errorf("%s prompt: %q, want %q", tc.p.Name, got, tc.prompt)
		}
		if tc.p.ContextUsage != tc.context || Profiles[tc.p.Name].Name != tc.p.Name {
			t.Errorf("%s: context %q", tc.p.Name, tc.p.ContextUsage)
		}
		if (tc.p.Name == "aider" || tc.p.Name == "generic") == tc.p.CanResume() {
			t.Errorf("%s: CanResume %v", tc.p.Name, tc.p.CanResume())
		}
	}
}
