package supervise

import (
	"fmt"
	"strings"
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
		{Codex, []string{"--no-daemon", "resume", "ID", "--model", "m"}, []string{"--no-daemon", "--model", "m", "--", "go on"}, ContextNone},
		{Gemini, []string{"--model", "m", "--resume", "ID"}, []string{"--model", "m", "--prompt-interactive", "go on", "--session-id", "*"}, ContextNone},
		{OpenCode, []string{"--model", "m", "-s", "ID"}, []string{"--model", "m", "--prompt", "go on"}, ContextNone},
		{Aider, user, user, ContextNone},
		{Generic, user, user, ContextNone},
	} {
		inv := tc.p.Scan(user)
		if got := tc.p.Args(user, inv, resume, false); fmt.Sprint(got) != fmt.Sprint(tc.resume) {
			t.Errorf("%s resume: %q, want %q", tc.p.Name, got, tc.resume)
		}
		if got := tc.p.Args(user, inv, prompt, false); !argsMatch(got, tc.prompt) {
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

// argsMatch compares a command line with want, where "*" stands for a
// conversation id the profile chose.
func argsMatch(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if want[i] == "*" {
			if !isUUID(got[i]) {
				return false
			}
			continue
		}
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// Issue 16: each profile knows its CLI's command line. A run that answers
// once is marked so (and is never restarted); the user's own choice of
// conversation and first prompt are for the first start only; a restart
// resumes with the profile's words in their place, never beside them
// (`-- resume --last` once became `codex resume <id> resume --last`).
func TestProfilesReadTheirCommandLines(t *testing.T) {
	for _, tc := range []struct {
		p       Profile
		args    []string
		oneShot bool
		prints  bool
		chose   bool
		restart []string // the restart's command line when resuming "ID"
	}{
		{p: Codex, args: nil, restart: []string{"--no-daemon", "resume", "ID"}},
		{p: Codex, args: []string{"write a poem"}, restart: []string{"--no-daemon", "resume", "ID"}},
		{p: Codex, args: []string{"-m", "gpt", "-i", "a.png", "write", "--search"}, restart: []string{"--no-daemon", "resume", "ID", "-m", "gpt", "--search"}},
		{p: Codex, args: []string{"resume", "--last"}, chose: true, restart: []string{"--no-daemon", "resume", "ID"}},
		{p: Codex, args: []string{"resume", "01a2135e-91a8-7202-a794-a9a50eb18a9d", "go on", "-m", "x"}, chose: true, restart: []string{"--no-daemon", "resume", "ID", "-m", "x"}},
		{p: Codex, args: []string{"--no-daemon", "-c", "model=\"o3\"", "fork", "--last"}, chose: true, restart: []string{"--no-daemon", "resume", "ID", "-c", "model=\"o3\""}},
		{p: Codex, args: []string{"--worktree", "-C", "sub"}, restart: []string{"--no-daemon", "resume", "ID", "-C", "sub"}},
		{p: Codex, args: []string{"exec", "say hi"}, oneShot: true},
		{p: Codex, args: []string{"-m", "x", "e", "say hi"}, oneShot: true},
		{p: Codex, args: []string{"login", "status"}, oneShot: true},
		{p: Codex, args: []string{"--version"}, oneShot: true, prints: true},
		{p: Codex, args: []string{"exec", "--help"}, oneShot: true, prints: true},
		{p: Codex, args: []string{"-m", "exec", "hello"}, restart: []string{"--no-daemon", "resume", "ID", "-m", "exec"}},
		{p: Codex, args: []string{"--", "exec"}, restart: []string{"--no-daemon", "resume", "ID"}},

		{p: Gemini, args: []string{"write a poem"}, restart: []string{"--resume", "ID"}},
		{p: Gemini, args: []string{"-m", "pro", "-i", "write", "--yolo"}, restart: []string{"-m", "pro", "--yolo", "--resume", "ID"}},
		{p: Gemini, args: []string{"--resume", "latest"}, chose: true, restart: []string{"--resume", "ID"}},
		{p: Gemini, args: []string{"-r=3", "-m", "x"}, chose: true, restart: []string{"-m", "x", "--resume", "ID"}},
		{p: Gemini, args: []string{"--session-id", "11111111-2222-4333-8444-555555555555"}, chose: true, restart: []string{"--resume", "ID"}},
		{p: Gemini, args: []string{"-p", "say hi"}, oneShot: true},
		{p: Gemini, args: []string{"--prompt=say hi"}, oneShot: true},
		{p: Gemini, args: []string{"mcp", "list"}, oneShot: true},
		{p: Gemini, args: []string{"--list-sessions"}, oneShot: true},
		{p: Gemini, args: []string{"-v"}, oneShot: true, prints: true},
		{p: Gemini, args: []string{"-m", "mcp", "hello"}, restart: []string{"-m", "mcp", "--resume", "ID"}},
	} {
		name := tc.p.Name + " " + strings.Join(tc.args, " ")
		inv := tc.p.Scan(tc.args)
		if inv.OneShot != tc.oneShot || inv.PrintsOnly != tc.prints || inv.ChoseConversation != tc.chose {
			t.Errorf("%s: %+v, want one-shot %v, prints only %v, chose %v", name, inv, tc.oneShot, tc.prints, tc.chose)
			continue
		}
		if tc.oneShot {
			// One-shot runs run as typed, the first time and only then.
			if got := tc.p.Args(tc.args, inv, Plan{Action: Fresh}, true); fmt.Sprint(got) != fmt.Sprint(tc.args) {
				t.Errorf("%s: a one-shot run runs %q", name, got)
			}
			continue
		}
		if got := tc.p.Args(tc.args, inv, Plan{Action: Resume, SessionID: "ID"}, false); fmt.Sprint(got) != fmt.Sprint(tc.restart) {
			t.Errorf("%s: restart %q, want %q", name, got, tc.restart)
		}
	}
}

// A fresh interactive start of Codex runs without the shared background
// server, and one of Gemini CLI under an id the supervisor chose, unless
// the user named the conversation.
func TestFreshStartsOfCodexAndGemini(t *testing.T) {
	for _, tc := range []struct {
		p          Profile
		args, want []string
	}{
		{Codex, []string{"write"}, []string{"--no-daemon", "write"}},
		{Codex, []string{"--no-daemon", "write"}, []string{"--no-daemon", "write"}},
		{Codex, []string{"resume", "--last"}, []string{"--no-daemon", "resume", "--last"}},
		{Codex, []string{"--", "--no-daemon"}, []string{"--no-daemon", "--", "--no-daemon"}},
		{Gemini, []string{"write"}, []string{"write", "--session-id", "*"}},
		{Gemini, []string{"--resume", "latest"}, []string{"--resume", "latest"}},
		{Gemini, []string{"--session-id=11111111-2222-4333-8444-555555555555"}, []string{"--session-id=11111111-2222-4333-8444-555555555555"}},
	} {
		inv := tc.p.Scan(tc.args)
		if got := tc.p.Args(tc.args, inv, Plan{Action: Fresh}, true); !argsMatch(got, tc.want) {
			t.Errorf("%s %q: first start %q, want %q", tc.p.Name, tc.args, got, tc.want)
		}
	}
	a := Gemini.Args(nil, Gemini.Scan(nil), Plan{Action: Fresh}, false)
	b := Gemini.Args(nil, Gemini.Scan(nil), Plan{Action: Fresh}, false)
	if a[len(a)-1] == b[len(b)-1] {
		t.Errorf("two fresh starts of gemini got the same conversation id %s", a[len(a)-1])
	}
}
