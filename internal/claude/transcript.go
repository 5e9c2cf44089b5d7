package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
)

// TranscriptTail is how much of the end of a transcript ReadTranscript
// reads: enough for the last several turns of any conversation, whatever
// the transcript's size (a long session's runs to hundreds of MB).
const TranscriptTail = 8 << 20

// Handover is what a conversation's transcript says about where the work
// stands: what a fresh agent needs to carry on, when the agent itself can
// no longer write it down.
type Handover struct {
	// Prompts are the user's recent prompts, oldest first.
	Prompts []string
	// Replies are the agent's last answers (text), oldest first.
	Replies []string
	// Read and Written are the files the tools read and wrote, most
	// recent last, each once.
	Read, Written []string
	// Commands are the last shell commands the agent ran.
	Commands []string
	// Todos is the open part of the agent's last todo list.
	Todos []string
}

// Limits on what a Handover keeps.
const (
	maxPrompts  = 5
	maxReplies  = 3
	maxFiles    = 40
	maxCommands = 10
	maxText     = 2000
)

// ReadTranscript reads the handover from Claude Code's transcript (the
// JSON-lines file at transcript_path): the user's prompts, the agent's
// answers, the files its tools touched, its last shell commands and open
// todos, from the last TranscriptTail bytes. Subagents' lines (sidechains)
// are left out. Lines it does not understand are skipped: the format is
// Claude Code's and changes between versions.
//
// The file is opened without blocking and must be a regular file: a FIFO
// put in its place cannot hang the supervisor.
func ReadTranscript(path string) (Handover, error) {
	var h Handover
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return h, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return h, err
	}
	if !fi.Mode().IsRegular() {
		return h, fmt.Errorf("transcript %s is not a regular file", path)
	}
	skipFirst := false
	if fi.Size() > TranscriptTail {
		if _, err := f.Seek(fi.Size()-TranscriptTail, io.SeekStart); err != nil {
			return h, err
		}
		skipFirst = true // a line cut in half
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), TranscriptTail)
	for sc.Scan() {
		if skipFirst {
			skipFirst = false
			continue
		}
		h.line(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		return h, fmt.Errorf("transcript %s: %w", path, err)
	}
	return h, nil
}

// entry is the part of a transcript line the handover reads.
type entry struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	// IsMeta marks text Claude Code adds as the user's: a slash command's
	// expansion, hook context.
	IsMeta  bool `json:"isMeta"`
	Message struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

func (h *Handover) line(b []byte) {
	var e entry
	if json.Unmarshal(b, &e) != nil || e.IsSidechain || (e.Type != "user" && e.Type != "assistant") {
		return
	}
	var text string
	var blocks []block
	if json.Unmarshal(e.Message.Content, &text) != nil {
		if json.Unmarshal(e.Message.Content, &blocks) != nil {
			return
		}
	}
	if e.Type == "user" {
		if e.IsMeta {
			return
		}
		if text != "" {
			h.prompt(text)
		}
		for _, bl := range blocks {
			if bl.Type == "text" {
				h.prompt(bl.Text)
			}
		}
		return
	}
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			if t := strings.TrimSpace(bl.Text); t != "" {
				h.Replies = keepLast(append(h.Replies, clip(t)), maxReplies)
			}
		case "tool_use":
			h.tool(bl.Name, bl.Input)
		}
	}
}

// prompt records a user prompt; Claude Code's own reminders and hook
// context, which travel as user text, are not the user's words, nor is
// superclaude's own command (/superclaude:session continue after a
// restart) or its expansion. A slash command the user typed is recorded as
// typed: `/review src`.
func (h *Handover) prompt(t string) {
	t = strings.TrimSpace(t)
	if t == "" || strings.HasPrefix(t, "<system-reminder>") || strings.HasPrefix(t, "<local-command") ||
		strings.HasPrefix(t, sessionCommandIntro) {
		return
	}
	if strings.HasPrefix(t, "<command-message>") || strings.HasPrefix(t, "<command-name>") {
		name, args := between(t, "<command-name>", "</command-name>"), between(t, "<command-args>", "</command-args>")
		if name == "" || strings.HasPrefix(strings.TrimPrefix(name, "/"), "superclaude:") {
			return
		}
		t = strings.TrimSpace(name + " " + args)
	}
	h.Prompts = keepLast(append(h.Prompts, clip(t)), maxPrompts)
}

// sessionCommandIntro begins the expansion of /superclaude:session
// (plugin/commands/session.md).
const sessionCommandIntro = "You are running under superclaude, which supervises this Claude Code process."

// between returns the text of s between open and close ("" when absent).
func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, close)
	return strings.TrimSpace(v)
}

func (h *Handover) tool(name string, input json.RawMessage) {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Command      string `json:"command"`
		Todos        []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"todos"`
	}
	if json.Unmarshal(input, &in) != nil {
		return
	}
	switch name {
	case "Read":
		h.Read = touch(h.Read, in.FilePath)
	case "Write", "Edit", "MultiEdit":
		h.Written = touch(h.Written, in.FilePath)
	case "NotebookEdit":
		h.Written = touch(h.Written, in.NotebookPath)
	case "Bash":
		if c := strings.TrimSpace(in.Command); c != "" {
			h.Commands = keepLast(append(h.Commands, clip(c)), maxCommands)
		}
	case "TodoWrite":
		h.Todos = nil
		for _, td := range in.Todos {
			if td.Status != "completed" && strings.TrimSpace(td.Content) != "" {
				h.Todos = append(h.Todos, clip(td.Content))
			}
		}
	}
}

// touch moves path to the end of list, adding it once.
func touch(list []string, path string) []string {
	if path == "" {
		return list
	}
	out := list[:0]
	for _, p := range list {
		if p != path {
			out = append(out, p)
		}
	}
	return keepLast(append(out, path), maxFiles)
}

func keepLast(list []string, n int) []string {
	if len(list) > n {
		return append(list[:0:0], list[len(list)-n:]...)
	}
	return list
}

func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + " […]"
}

// Markdown writes the handover as DEHYDRATED_CONTEXT.md, in the sections
// the /superclaude:session continue command reads (its "## Required
// files" list is read file by file). session, skill and phase come from the
// session's state; why says what made the supervisor write it.
func (h Handover) Markdown(session, skill, phase, why string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Dehydrated context of session %s\n\n", session)
	fmt.Fprintf(&b, "superclaude wrote this from the conversation's transcript, because %s: "+
		"the agent could not save its context itself. It holds what the transcript shows; "+
		"read the files listed below before you continue.\n\n", why)
	b.WriteString("## Task\n\nThe user's most recent prompts, oldest first:\n\n")
	list(&b, h.Prompts, "(none in the transcript)", true)
	b.WriteString("## Phase\n\n")
	fmt.Fprintf(&b, "- Skill: %s\n- Phase: %s\n\n", orNone(skill), orNone(phase))
	b.WriteString("## Done\n\nThe agent's last answers, oldest first:\n\n")
	list(&b, h.Replies, "(none)", true)
	if len(h.Commands) > 0 {
		b.WriteString("Its last shell commands:\n\n")
		for _, c := range h.Commands {
			fmt.Fprintf(&b, "    %s\n", strings.ReplaceAll(c, "\n", "\n    "))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Next\n\n")
	if len(h.Todos) > 0 {
		b.WriteString("The open items of the agent's todo list:\n\n")
		list(&b, h.Todos, "", false)
	}
	b.WriteString("Carry on from the last prompt above, where the last answer left it. Do not repeat finished work.\n\n")
	b.WriteString("## Decisions\n\n(not recorded: see the answers above)\n\n")
	b.WriteString("## Required files\n\n")
	files := append(append([]string(nil), h.Written...), h.Read...)
	seen := map[string]bool{}
	n := 0
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			fmt.Fprintf(&b, "%s\n", f)
			n++
		}
	}
	if n == 0 {
		b.WriteString("(none)\n")
	}
	b.WriteString("\n## Open questions\n\n(none recorded)\n")
	return b.Bytes()
}

func list(b *bytes.Buffer, items []string, empty string, quote bool) {
	if len(items) == 0 {
		if empty != "" {
			fmt.Fprintf(b, "%s\n\n", empty)
		}
		return
	}
	for _, it := range items {
		if quote {
			fmt.Fprintf(b, "> %s\n\n", strings.ReplaceAll(it, "\n", "\n> "))
		} else {
			fmt.Fprintf(b, "- %s\n", it)
		}
	}
	if !quote {
		b.WriteString("\n")
	}
}

// Dehydrate writes what ReadTranscript finds in transcript as
// DEHYDRATED_CONTEXT.md's text, for session at skill and phase; why says
// what made the supervisor do it. A transcript that cannot be read still
// gives a file: the state's skill and phase, and why.
func Dehydrate(transcript, session, skill, phase, why string) ([]byte, error) {
	var h Handover
	var err error
	if transcript != "" {
		h, err = ReadTranscript(transcript)
	}
	return h.Markdown(session, skill, phase, why), err
}

// FirstPrompt returns the first prompt of the user's in a transcript,
// reading at most its first TranscriptTail bytes.
func FirstPrompt(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("transcript %s is not a regular file", path)
	}
	sc := bufio.NewScanner(io.LimitReader(f, TranscriptTail))
	sc.Buffer(make([]byte, 0, 64<<10), TranscriptTail)
	for sc.Scan() {
		var h Handover
		h.line(sc.Bytes())
		if len(h.Prompts) > 0 {
			return h.Prompts[0], nil
		}
	}
	return "", sc.Err()
}
