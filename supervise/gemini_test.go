package supervise

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const geminiID = "11111111-2222-4333-8444-555555555555"

func chatFile(t *testing.T, home, project, stamp, id string, lines ...string) string {
	t.Helper()
	dir := filepath.Join(home, ".gemini", "tmp", project, "chats")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "session-"+stamp+"-"+id[:8]+".jsonl")
	head := `{"sessionId":"` + id + `","projectHash":"h","kind":"main"}`
	if err := os.WriteFile(path, []byte(strings.Join(append([]string{head}, lines...), "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Gemini CLI's conversation is the id it was started on, once the CLI has
// written its chat file; an id chosen by position (latest, a number) is
// not on the command line, and says so.
func TestGeminiConversationIsTheIdItWasStartedOn(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home}
	started := Running{Args: []string{"--model", "m", "--session-id", geminiID}, Env: env}
	if id, _, err := geminiConversation(started); id != "" || err != nil {
		t.Errorf("before the CLI wrote its file: %q, %v; want none yet", id, err)
	}
	// Another conversation whose id begins alike is not it.
	chatFile(t, home, "proj", "2026-11-25T15-48", "11111111-0000-4000-8000-000000000000")
	if id, _, _ := geminiConversation(started); id != "" {
		t.Errorf("learned %q from another conversation's file", id)
	}
	path := chatFile(t, home, "proj", "2026-11-25T15-49", geminiID)
	if id, tr, err := geminiConversation(started); id != geminiID || tr != path || err != nil {
		t.Errorf("conversation %q in %s, %v; want %s in %s", id, tr, err, geminiID, path)
	}
	resumed := Running{Args: []string{"--resume", geminiID}, Env: env}
	if id, _, _ := geminiConversation(resumed); id != geminiID {
		t.Errorf("resumed: %q", id)
	}
	// Resumed, the CLI also writes a new file of the id that holds
	// nothing, newer: the conversation is still in the one that holds it.
	chatFile(t, home, "proj", "2026-11-25T15-49", geminiID, `{"type":"user","content":"hi"}`)
	os.Chtimes(path, time.Now().Add(-time.Minute), time.Now().Add(-time.Minute))
	chatFile(t, home, "proj", "2026-11-25T16-10", geminiID)
	if _, tr, _ := geminiConversation(resumed); tr != path {
		t.Errorf("resumed, with a new empty file of the id beside it: learned %s, want %s", tr, path)
	}
	for _, args := range [][]string{{"--resume", "latest"}, {"-r", "3"}, {"--session-file", "x.json"}, {"--session-id", "not-an-id"}} {
		if id, _, err := geminiConversation(Running{Args: args, Env: env}); id != "" || err == nil {
			t.Errorf("%q: %q, %v; want an error saying the id is not known", args, id, err)
		}
	}
}

// Busy or idle is the chat file's last message.
func TestChatStatusIsTheLastMessage(t *testing.T) {
	home := t.TempDir()
	set := `{"$set":{"lastUpdated":"2026-11-25T15:52:27.015Z"}}`
	user := `{"id":"1","type":"user","content":[{"text":"hello"}]}`
	answer := `{"id":"2","type":"gemini","content":"ok"}`
	call := `{"id":"3","type":"gemini","content":"","toolCalls":[{"id":"c","name":"run_shell_command"}]}`
	output := `{"id":"4","type":"user","content":[{"functionResponse":{"name":"run_shell_command"}}]}`
	info := `{"id":"5","type":"info","content":"cancelled"}`
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"no message yet", []string{set}, StatusIdle},
		{"a prompt sent", []string{user, set}, StatusBusy},
		{"answered", []string{user, set, answer, set}, StatusIdle},
		{"a tool called", []string{user, answer, call, set}, StatusBusy},
		{"its output going back", []string{user, call, output, set}, StatusBusy},
		{"an info after a prompt", []string{user, info}, StatusIdle},
	} {
		path := chatFile(t, home, "p", "x", geminiID, tc.lines...)
		if got, err := chatStatus(path); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
