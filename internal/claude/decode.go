package claude

import (
	"bytes"

	"github.com/superclaude/superclaude/internal/rawjson"
)

// What claude sends a callback — the status line's tick, a hook's input
// and its tool call — is read here as json.Unmarshal would read it, but
// without its reflection (internal/rawjson): decoding one payload into a
// struct cost a callback process 100–130 µs the first time, ten times the
// decoding itself (issue 22). Each decoder returns ok false for a payload
// that is not plain — a value of another type than expected, a key in
// another case or given twice — which its caller then gives to
// json.Unmarshal. The fuzz tests in decode_test.go hold each to
// json.Unmarshal's answers.

// The status line's keys, as claude spells them, in StatusLine's order.
var (
	statusLineKeys    = []string{"session_id", "transcript_path", "cwd", "model", "workspace", "version", "cost", "context_window", "session_name", "rate_limits"}
	modelKeys         = []string{"id", "display_name"}
	workspaceKeys     = []string{"current_dir", "project_dir"}
	costKeys          = []string{"total_cost_usd"}
	contextWindowKeys = []string{"context_window_size", "used_percentage", "remaining_percentage"}
	rateLimitKeys     = []string{"used_percentage", "resets_at"}
)

// decodeStatusLine reads a status-line payload (ParseStatusLine).
func decodeStatusLine(data []byte) (s StatusLine, ok bool) {
	ok = rawjson.Fields(data, statusLineKeys, func(i int, v []byte) bool {
		switch i {
		case 0:
			return rawjson.String(v, &s.SessionID)
		case 1:
			return rawjson.String(v, &s.TranscriptPath)
		case 2:
			return rawjson.String(v, &s.Cwd)
		case 3:
			return rawjson.Fields(v, modelKeys, func(i int, v []byte) bool {
				return rawjson.String(v, []*string{&s.Model.ID, &s.Model.DisplayName}[i])
			})
		case 4:
			return rawjson.Fields(v, workspaceKeys, func(i int, v []byte) bool {
				return rawjson.String(v, []*string{&s.Workspace.CurrentDir, &s.Workspace.ProjectDir}[i])
			})
		case 5:
			return rawjson.String(v, &s.Version)
		case 6:
			return rawjson.Fields(v, costKeys, func(_ int, v []byte) bool {
				return rawjson.Float(v, &s.Cost.TotalCostUSD)
			})
		case 7:
			w := &s.ContextWindow
			return rawjson.Fields(v, contextWindowKeys, func(i int, v []byte) bool {
				switch i {
				case 0:
					return rawjson.IntField(v, &w.ContextWindowSize)
				case 1:
					return rawjson.FloatPtr(v, &w.UsedPercentage)
				}
				return rawjson.FloatPtr(v, &w.RemainingPercentage)
			})
		case 8:
			return rawjson.String(v, &s.SessionName)
		}
		return decodeRateLimits(v, &s.RateLimits)
	})
	return s, ok
}

// decodeRateLimits reads rate_limits, a map, as json.Unmarshal does: null
// makes it nil; each window is read afresh, the last of a name counting.
func decodeRateLimits(v []byte, r *RateLimits) bool {
	if rawjson.IsNull(v) {
		*r = nil
		return true
	}
	m := RateLimits{}
	ok := rawjson.Members(v, func(name, v []byte) bool {
		var w struct {
			UsedPercentage float64 `json:"used_percentage"`
			ResetsAt       int64   `json:"resets_at"`
		}
		ok := rawjson.Fields(v, rateLimitKeys, func(i int, v []byte) bool {
			if i == 0 {
				return rawjson.Float(v, &w.UsedPercentage)
			}
			return rawjson.Int(v, &w.ResetsAt)
		})
		m[string(name)] = w
		return ok && !rawjson.IsNull(v)
	})
	if ok {
		*r = m
	}
	return ok
}

// The hook input's keys, in HookInput's order, and the tool call's.
var (
	hookInputKeys = []string{"session_id", "transcript_path", "cwd", "hook_event_name", "prompt_id", "tool_name", "tool_input",
		"source", "prompt", "trigger", "error", "error_details", "last_assistant_message", "superclaude_unreadable"}
	toolInputKeys = []string{"command", "file_path", "skill", "args"}
)

// decodeHookInput reads a hook's input (ParseHookInput). tool_input is
// kept raw, as json.RawMessage keeps it (null too).
func decodeHookInput(data []byte) (in HookInput, ok bool) {
	strs := []*string{&in.SessionID, &in.TranscriptPath, &in.Cwd, &in.HookEventName, &in.PromptID, &in.ToolName, nil,
		&in.Source, &in.Prompt, &in.Trigger, &in.Error, &in.ErrorDetails, &in.LastAssistantMessage, &in.Unreadable}
	ok = rawjson.Fields(data, hookInputKeys, func(i int, v []byte) bool {
		if strs[i] == nil {
			in.ToolInput = bytes.Clone(v)
			return true
		}
		return rawjson.String(v, strs[i])
	})
	return in, ok
}

// decodeToolCall reads the fields of a tool call's input (HookInput.Tool).
func decodeToolCall(toolInput []byte) (command, filePath, skill, args string, ok bool) {
	strs := []*string{&command, &filePath, &skill, &args}
	ok = rawjson.Fields(toolInput, toolInputKeys, func(i int, v []byte) bool {
		return rawjson.String(v, strs[i])
	})
	return command, filePath, skill, args, ok
}
