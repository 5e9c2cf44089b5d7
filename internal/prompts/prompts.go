// Package prompts reads the person's prompts of a conversation from the
// file the agent's CLI keeps it in — Codex's rollout, Gemini CLI's chat
// file — for +history's first and last prompt. Claude Code's transcript is
// internal/claude's. What each file holds was measured with the real CLIs
// (docs/agent-clis.md); a line of a form not known is passed over, never
// taken for a prompt.
package prompts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/superclaude/superclaude/internal/safefs"
)

// maxLine bounds one line of a conversation file that is read: a pasted
// prompt or a tool's output can be long, but a line past this is not one
// to show in a column.
const maxLine = 16 << 20

// Codex reads the person's prompts, oldest first, from a Codex rollout
// file ($CODEX_HOME/sessions/…/rollout-…-<id>.jsonl). Codex 0.169 writes
// each as an event whose item is a UserMessage — only the person's: the
// context it sends as the user's own (<environment_context>) is a
// response_item without one. Earlier versions wrote an event_msg of type
// user_message, which is read too.
func Codex(path string) ([]string, error) {
	var out []string
	err := eachLine(path, [][]byte{[]byte(`"UserMessage"`), []byte(`"user_message"`)}, func(line []byte) {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type    string `json:"type"`
				Message string `json:"message"`
				Item    struct {
					Type    string `json:"type"`
					Content []struct {
						Type string `json:"type"`
						Text string `json:"text"`
					} `json:"content"`
				} `json:"item"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &l) != nil || l.Type != "event_msg" {
			return
		}
		switch {
		case l.Payload.Type == "user_message" && l.Payload.Message != "":
			out = append(out, l.Payload.Message)
		case l.Payload.Type == "item_completed" && l.Payload.Item.Type == "UserMessage":
			var texts []string
			for _, c := range l.Payload.Item.Content {
				if c.Type == "text" && c.Text != "" {
					texts = append(texts, c.Text)
				}
			}
			if len(texts) > 0 {
				out = append(out, strings.Join(texts, "\n"))
			}
		}
	})
	return out, err
}

// geminiMessage is one message of a Gemini CLI chat file.
type geminiMessage struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

// Gemini reads the person's prompts, oldest first, from a Gemini CLI chat
// file (~/.gemini/tmp/<project>/chats/session-…jsonl). Gemini CLI 0.61
// writes a line per message ("type": "user" or "gemini"), and "$set"
// lines, one of which sets the messages the file starts from: the context
// it sends as the user's own (<session_context>), and on a resume the
// earlier messages. A user message whose parts hold no text is a tool's
// output going back, not a prompt.
func Gemini(path string) ([]string, error) {
	var out []string
	err := eachLine(path, [][]byte{[]byte(`"user"`), []byte(`"$set"`)}, func(line []byte) {
		var l struct {
			geminiMessage
			Set *struct {
				Messages *[]geminiMessage `json:"messages"`
			} `json:"$set"`
		}
		if json.Unmarshal(line, &l) != nil {
			return
		}
		if l.Set != nil && l.Set.Messages != nil {
			out = out[:0]
			for _, m := range *l.Set.Messages {
				if p := geminiPrompt(m); p != "" {
					out = append(out, p)
				}
			}
			return
		}
		if p := geminiPrompt(l.geminiMessage); p != "" {
			out = append(out, p)
		}
	})
	return out, err
}

// geminiPrompt is the person's prompt m holds, "" when m is none.
func geminiPrompt(m geminiMessage) string {
	if m.Type != "user" {
		return ""
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) != nil {
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			return ""
		}
		parts = append(parts, struct {
			Text string `json:"text"`
		}{text})
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if strings.HasPrefix(strings.TrimSpace(text), "<session_context>") {
		return ""
	}
	return text
}

// eachLine hands fn each line of the regular file path that holds one of
// marks (the others are not decoded: a rollout is mostly the agent's
// output). A line longer than maxLine is passed over.
func eachLine(path string, marks [][]byte, fn func([]byte)) error {
	if path == "" {
		return errors.New("no conversation file is known")
	}
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			tooLong, line = true, line[:0]
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the rest of the line comes
		}
		for _, m := range marks {
			if !tooLong && bytes.Contains(line, m) {
				fn(bytes.TrimSpace(line))
				break
			}
		}
		line, tooLong = line[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
