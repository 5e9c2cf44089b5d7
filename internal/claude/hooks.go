package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// HookInput is the part of a hook's stdin JSON superclaude uses.
type HookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// PromptID names the prompt whose turn the event belongs to: the
	// UserPromptSubmit that submitted it and the Stop that ends its turn
	// carry the same one.
	PromptID  string          `json:"prompt_id"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	// Source is SessionStart's (startup, resume, clear or compact) and
	// UserPromptSubmit's: who put the prompt there (user, sdk, system,
	// loop_wakeup, schedule_wakeup, poll_event; see Injected).
	Source string `json:"source"`
	// Prompt is UserPromptSubmit's.
	Prompt string `json:"prompt"`
	// Trigger is PreCompact's: manual or auto.
	Trigger string `json:"trigger"`
	// Error, ErrorDetails and LastAssistantMessage are StopFailure's: why
	// the turn failed.
	Error                string `json:"error"`
	ErrorDetails         string `json:"error_details"`
	LastAssistantMessage string `json:"last_assistant_message"`
	// Unreadable, when set, says why superclaude could not read the input
	// (see ReadHookInput); the other fields hold what could be salvaged.
	Unreadable string `json:"superclaude_unreadable"`
}

// ParseHookInput reads a hook payload. A payload that is JSON but has a
// field of the wrong type (a number for tool_name, a list for
// transcript_path) is unreadable (HookInput.Unreadable, with what could be
// salvaged), so that the guards fail closed on it, as on input that is no
// JSON at all; only input that is not JSON is an error.
func ParseHookInput(data []byte) (HookInput, error) {
	if in, ok := decodeHookInput(data); ok {
		return in, nil
	}
	var in HookInput
	err := json.Unmarshal(data, &in)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		in = HookInput{}
		why := fmt.Sprintf("its field %s holds a JSON %s where superclaude expects a %s", te.Field, te.Value, te.Type)
		return in, json.Unmarshal(unreadable(data, why), &in)
	}
	return in, err
}

// ToolCall is what a tool call is about, from tool_input.
type ToolCall struct {
	Name     string
	Command  string // Bash
	FilePath string // Read, Write, Edit
	Skill    string // Skill
	Args     string // Skill
}

// Tool reads the tool call of a PreToolUse payload. The call of an
// unreadable input is no tool at all: nothing that depends on what the
// call is (an exemption from a guard) can be granted unread.
func (in HookInput) Tool() ToolCall {
	if in.Unreadable != "" {
		return ToolCall{}
	}
	if command, filePath, skill, args, ok := decodeToolCall(in.ToolInput); ok {
		return ToolCall{Name: in.ToolName, Command: command, FilePath: filePath, Skill: skill, Args: args}
	}
	var ti struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Skill    string `json:"skill"`
		Args     string `json:"args"`
	}
	json.Unmarshal(in.ToolInput, &ti) // what it reads of an input partly of other types
	return ToolCall{Name: in.ToolName, Command: ti.Command, FilePath: ti.FilePath, Skill: ti.Skill, Args: ti.Args}
}

// TranscriptKey is the heartbeat counter's key: the transcript's file
// name, which tells the main agent from each subagent (invariant 10).
func (in HookInput) TranscriptKey() string {
	if in.TranscriptPath == "" {
		return "unknown"
	}
	return filepath.Base(in.TranscriptPath)
}

// Answer is what a hook answers Claude Code, in its protocol.
type Answer struct {
	// Deny blocks a tool call (PreToolUse) with Reason, which the model
	// reads.
	Deny   bool
	Reason string
	// Block ends with exit 2 and Reason on stderr: for PreCompact, the
	// only way to stop an automatic compaction.
	Block bool
	// Context is added to what the model sees (UserPromptSubmit,
	// SessionStart, and a warning on an allowed PreToolUse).
	Context string
	// Restart, when set, asks the agent's supervisor to dehydrate the
	// conversation itself and restart the agent fresh, for this reason:
	// the agent cannot go on (its automatic compaction was blocked, its
	// prompt is too long). It is not part of the hook's answer to claude.
	Restart string
	// Notice is shown to the person (Claude Code's systemMessage): what
	// superclaude could not do for them.
	Notice string
}

// Write answers event on stdout or stderr and returns the exit code: a
// denial is exit 0 with permissionDecision "deny" (exit 1 would not
// block); a block is exit 2 with the reason on stderr.
func (a Answer) Write(event string, stdout, stderr io.Writer) int {
	if a.Block {
		fmt.Fprintln(stderr, a.Reason)
		return 2
	}
	out := map[string]any{"hookEventName": event}
	switch {
	case a.Deny:
		out["permissionDecision"] = "deny"
		out["permissionDecisionReason"] = a.Reason
	case a.Context != "":
		out["additionalContext"] = a.Context
	case a.Notice != "":
		b, _ := json.Marshal(map[string]any{"systemMessage": a.Notice})
		stdout.Write(append(b, '\n'))
		return 0
	default:
		return 0
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": out})
	stdout.Write(append(b, '\n'))
	return 0
}
