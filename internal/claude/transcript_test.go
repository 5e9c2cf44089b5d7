package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// testdata/transcript.jsonl is a real transcript of Claude Code 2.1.330
// (paths rewritten to /home/user): a prompt answered with Read, Write and
// Bash calls and a text, then a second prompt and answer.
func TestReadTranscriptOfTheRealCLI(t *testing.T) {
	h, err := ReadTranscript(filepath.Join("testdata", "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := Handover{
		Prompts:  []string{"please read notes and write out", "now summarise what you did"},
		Replies:  []string{"all done here: notes read, out.txt written", "second answer, the last one"},
		Read:     []string{"/home/user/proj/notes.txt"},
		Written:  []string{"/home/user/proj/out.txt"},
		Commands: []string{"echo built"},
	}
	if fmt.Sprint(h) != fmt.Sprint(want) {
		t.Fatalf("handover\n%+v\nwant\n%+v", h, want)
	}
	md := string(h.Markdown("X", "implement", "Phase 2", "automatic compaction was blocked"))
	for _, part := range []string{
		"# Dehydrated context of session X",
		"because automatic compaction was blocked",
		"> please read notes and write out",
		"- Skill: implement\n- Phase: Phase 2",
		"> second answer, the last one",
		"    echo built",
		"## Required files\n\n/home/user/proj/out.txt\n/home/user/proj/notes.txt\n",
	} {
		if !strings.Contains(md, part) {
			t.Errorf("the markdown lacks %q:\n%s", part, md)
		}
	}
}

// The handover keeps the last of everything and skips subagents, Claude
// Code's reminders and lines it does not understand.
func TestReadTranscriptKeepsTheLastOfEverything(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	var b strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":"prompt %d"}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Read","input":{"file_path":"/f%d"}},{"type":"text","text":"answer %d"}]}}`+"\n", i%3, i)
	}
	b.WriteString(`{"type":"user","isSidechain":true,"message":{"role":"user","content":"a subagent's prompt"}}` + "\n")
	b.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>noise</system-reminder>"}]}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[{"content":"done one","status":"completed"},{"content":"open one","status":"in_progress"}]}}]}}` + "\n")
	b.WriteString("not json at all\n")
	os.WriteFile(path, []byte(b.String()), 0o600)
	h, err := ReadTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(h.Prompts) != "[prompt 15 prompt 16 prompt 17 prompt 18 prompt 19]" ||
		fmt.Sprint(h.Replies) != "[answer 17 answer 18 answer 19]" ||
		fmt.Sprint(h.Read) != "[/f2 /f0 /f1]" || fmt.Sprint(h.Todos) != "[open one]" {
		t.Fatalf("%+v", h)
	}
}

// Regression (issue 9, a FIFO where a file should be): a FIFO in place of
// the transcript must not hang the supervisor that reads it.
func TestReadTranscriptRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTranscript(path); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO transcript: %v", err)
	}
}

func TestFirstPrompt(t *testing.T) {
	got, err := FirstPrompt(filepath.Join("testdata", "transcript.jsonl"))
	if err != nil || got != "please read notes and write out" {
		t.Fatalf("FirstPrompt = %q, %v", got, err)
	}
}

// Regression: after a restart, the resume question and +history showed
// superclaude's own /superclaude:session command, and its expansion ("You
// are running under superclaude…"), as the user's first and last prompts.
// Neither is the user's; a slash command the user typed is kept as typed.
func TestPromptsLeaveOutSuperclaudesOwnCommand(t *testing.T) {
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"<command-message>superclaude:session</command-message>\n<command-name>/superclaude:session</command-name>\n<command-args>continue --session S</command-args>"}}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"` + sessionCommandIntro + ` Arguments: continue"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"` + sessionCommandIntro + ` (without isMeta)"}]}}`,
		`{"type":"user","message":{"role":"user","content":"<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src</command-args>"}}`,
		`{"type":"user","message":{"role":"user","content":"and fix the tests"}}`,
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := ReadTranscript(path)
	if err != nil || fmt.Sprint(h.Prompts) != "[/review src and fix the tests]" {
		t.Fatalf("prompts %q, %v", h.Prompts, err)
	}
	if first, _ := FirstPrompt(path); first != "/review src" {
		t.Errorf("FirstPrompt = %q", first)
	}
	// The expansion's first line is what is recognised: the plugin's
	// command must still begin with it.
	md, err := pluginFS.ReadFile("plugin/commands/session.md")
	if _, body, _ := strings.Cut(string(md), "---\n"); err != nil || !strings.Contains(body, "\n"+sessionCommandIntro) {
		t.Errorf("plugin/commands/session.md no longer begins with %q", sessionCommandIntro)
	}
}
