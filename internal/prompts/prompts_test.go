package prompts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Lines of a rollout Codex 0.169 wrote for two prompts (measured, cut
// short): the context it sends as the user's is no prompt.
const rollout = `{"timestamp":"2026-12-01T23:58:33.947Z","ordinal":0,"type":"session_meta","payload":{"session_id":"01a2340b-bb0c-76c3-9f3d-7ae75196faad"}}
{"timestamp":"2026-12-01T23:58:34.102Z","ordinal":3,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"}]}}
{"timestamp":"2026-12-01T23:58:34.119Z","ordinal":7,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"first codex prompt"}]}}
{"timestamp":"2026-12-01T23:58:34.121Z","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"first codex prompt","text_elements":[]}]}}}
{"timestamp":"2026-12-01T23:58:34.157Z","ordinal":9,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"pong-one"}]}}}
{"timestamp":"2026-12-01T23:58:34.564Z","ordinal":18,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"last codex prompt"}]}}}
{"timestamp":"2026-12-01T23:58:34.594Z","ordinal":19,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"the word \"UserMessage\" in a reply"}]}}}
`

// Regression, issue 19: +history showed "-" as the first and last prompt
// of every Codex conversation, although prompts were typed.
func TestCodexPromptsAreThePersonsOnly(t *testing.T) {
	got, err := Codex(write(t, "rollout.jsonl", rollout+`{"type":"event_msg","payload":{"type":"user_message","message":"an older codex's prompt"}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"first codex prompt", "last codex prompt", "an older codex's prompt"}
	if !slices.Equal(got, want) {
		t.Errorf("prompts %q, want %q", got, want)
	}
}

// Lines of a chat file Gemini CLI 0.61 wrote (measured, cut short), and a
// tool's output going back, which is a user message without text.
const chat = `{"sessionId":"a6695bd7-28f5-41cb-9f65-6a6ce871ddab","kind":"main"}
{"$set":{"messages":[{"id":"d0","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}]}}
{"id":"d7","timestamp":"2026-12-01T23:58:48.771Z","type":"user","content":[{"text":"first gemini prompt"}]}
{"$set":{"lastUpdated":"2026-12-01T23:58:48.771Z"}}
{"id":"95","type":"gemini","content":"pong-one","toolCalls":[{"name":"run_shell_command"}]}
{"id":"96","type":"user","content":[{"functionResponse":{"name":"run_shell_command","response":{"output":"ok"}}}]}
{"id":"fe","type":"user","content":[{"text":"last gemini prompt"}]}
{"id":"2b","type":"gemini","content":"pong-two"}
`

// Regression, issue 19: the same for Gemini CLI; a resumed chat file
// starts from the earlier messages, set at once.
func TestGeminiPromptsAreThePersonsOnly(t *testing.T) {
	got, err := Gemini(write(t, "session.jsonl", chat))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"first gemini prompt", "last gemini prompt"}; !slices.Equal(got, want) {
		t.Errorf("prompts %q, want %q", got, want)
	}
	resumed := `{"sessionId":"a6"}
{"$set":{"messages":[{"type":"user","content":[{"text":"<session_context>x</session_context>"}]},{"type":"user","content":[{"text":"before"}]},{"type":"gemini","content":"ok"}]}}
{"type":"user","content":[{"text":"after"}]}
`
	got, err = Gemini(write(t, "resumed.jsonl", resumed))
	if want := []string{"before", "after"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("resumed: %q, %v; want %q", got, err, want)
	}
}

// A file that is not there, or not a regular file, is an error (the
// prompts are unknown), and a line too long to show is passed over.
func TestPromptsOfWhatCannotBeRead(t *testing.T) {
	if _, err := Codex(filepath.Join(t.TempDir(), "gone.jsonl")); err == nil {
		t.Error("a rollout that is gone read without error")
	}
	if _, err := Gemini(""); err == nil {
		t.Error("no chat file read without error")
	}
	if _, err := Codex(t.TempDir()); err == nil {
		t.Error("a directory read as a rollout")
	}
	long := `{"type":"event_msg","payload":{"type":"user_message","message":"` + strings.Repeat("x", maxLine) + `"}}` + "\n" +
		`{"type":"event_msg","payload":{"type":"user_message","message":"short"}}` + "\n"
	got, err := Codex(write(t, "long.jsonl", long))
	if err != nil || !slices.Equal(got, []string{"short"}) {
		t.Errorf("long line: %d prompts, %v", len(got), err)
	}
}
