package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/superclaude/superclaude/internal/rawjson"
)

// Lifecycle is where a session is in its life: one of three fields that
// answer separate questions, beside Overflowed and KillRequested
// (docs/design.md#the-session-lifecycle).
type Lifecycle string

// The lifecycle values.
const (
	// Active is normal operation.
	Active Lifecycle = "active"
	// Completed means the skill's synthesis is done; the session gate
	// re-engages until the next activate.
	Completed Lifecycle = "completed"
	// Dehydrating means /session dehydrate is saving the working context.
	Dehydrating Lifecycle = "dehydrating"
	// Restarting means the supervisor is starting a fresh agent with the
	// restart prompt after an overflow kill.
	Restarting Lifecycle = "restarting"
	// Resuming means the supervisor found this pane's session with a dead
	// owner and is resuming its conversation.
	Resuming Lifecycle = "resuming"
)

// Lifecycles lists every valid lifecycle value.
var Lifecycles = []Lifecycle{Active, Completed, Dehydrating, Restarting, Resuming}

// Transient reports whether l is a step its supervisor is in the middle
// of — starting a fresh agent (Restarting) or resuming a conversation
// (Resuming) — which only a running supervisor can be.
func (l Lifecycle) Transient() bool { return l == Restarting || l == Resuming }

// Settle is what a session becomes once its supervisor has ended: the
// restart or resume it was making is over, so the session is Active
// again (issue 19: a /exit before a restart's continuation left it
// "restarting" for good, and a +down before a resumed Codex had a turn
// left it "resuming"); and the bootstrap flag of a session without a
// skill, which only its activation set and nothing will clear, goes.
// Overflowed, the handoff marker and a skill's own loading stay: they say
// what the next start must do. It reports whether it changed s.
func (s *State) Settle() bool {
	changed := false
	if s.Lifecycle.Transient() {
		s.Lifecycle, changed = Active, true
	}
	if s.Loading != nil && s.Skill == "" {
		s.Loading, changed = nil, true
	}
	return changed
}

// Default thresholds of the logging heartbeat: after this many tool calls
// without a log entry the PreToolUse hook warns, then refuses.
const (
	DefaultWarnAfter  = 3
	DefaultBlockAfter = 10
)

// State is one session's .state.json. The JSON names are those of the
// scripts superclaude replaces; the doc comment of each field says who
// writes it (docs/design.md#who-moves-it).
type State struct {
	// PID is the supervisor's PID (CLAUDE_SUPERVISOR_PID), written by
	// activate, claimed by the status line, reset by the supervisor on
	// fleet resume.
	PID int
	// PIDStart and PIDBoot complete PID into a verified process identity
	// (superclaude's addition; seed-era files lack them).
	PIDStart uint64
	PIDBoot  string
	// SessionID is the agent's conversation id, bound by the status line,
	// deleted by restart. Empty means absent.
	SessionID string
	// Skill is the current skill, written by activate.
	Skill string
	// Lifecycle is the session's lifecycle.
	Lifecycle Lifecycle
	// Loading is the bootstrap flag: set by activate, deleted by phase.
	// Nil means absent.
	Loading *bool
	// Overflowed is sticky: set by the overflow guard, cleared only by
	// activate.
	Overflowed bool
	// KillRequested asks the watchdog to kill the agent: set by restart,
	// cleared by activate and by the supervisor after it restarts.
	KillRequested bool
	// ContextUsage is the context window used, 0.0–1.0.
	ContextUsage float64
	// CurrentPhase is the skill phase, written by phase.
	CurrentPhase string
	// FleetPaneID is the stable pane identity, written by activate and
	// cleared from other sessions when another activate claims the pane.
	FleetPaneID string
	// TargetFile is the file shown in the status line (target).
	TargetFile string
	// SessionDescription and Keywords are written by deactivate.
	SessionDescription string
	Keywords           string
	// StartedAt is when the session was created.
	StartedAt time.Time
	// LastHeartbeat is the last activity seen by a phase, a log or a
	// status line that runs with no supervisor (LastActivity is the
	// latest of all).
	LastHeartbeat time.Time
	// RestartPrompt is the first prompt of the agent after an overflow
	// restart: written by restart, deleted by the supervisor.
	RestartPrompt string
	// ToolCallsSinceLastLog is the legacy heartbeat counter.
	ToolCallsSinceLastLog int
	// ToolCallsByTranscript counts tool calls per agent instance, keyed by
	// the basename of its transcript path.
	ToolCallsByTranscript map[string]int
	// ToolUseWithoutLogsWarnAfter and ToolUseWithoutLogsBlockAfter are the
	// heartbeat thresholds.
	ToolUseWithoutLogsWarnAfter  int
	ToolUseWithoutLogsBlockAfter int
	// Restarts counts the agent restarts the supervisor made in this
	// session (superclaude's addition).
	Restarts int
	// ActivatedAt is when the session was last activated, to the
	// nanosecond: of the sessions one supervisor has activated, the latest
	// is the one its agent works in (superclaude's addition).
	ActivatedAt time.Time
	// Auto marks a session the supervisor activated on its own, for a
	// user whose skills activate none: a convenience that gives overflow
	// restart and fleet resume, not an activation — the session gate
	// stays closed (S10). Any `+session activate` clears it
	// (superclaude's addition).
	Auto bool
	// TranscriptPath is the agent's transcript of the conversation
	// sessionId names, bound with it by the status line: what the
	// supervisor dehydrates from when the agent cannot (superclaude's
	// addition).
	TranscriptPath string
	// CostUSD is the conversation's cost so far, as the agent's status
	// line reports it (superclaude's addition).
	CostUSD float64
	// AgentStatus is what the agent is doing — busy, idle, or waiting for
	// the user's input — as it last reported, and AgentStatusAt when that
	// changed (superclaude's addition).
	AgentStatus   string
	AgentStatusAt time.Time
	// AgentUnknown says why AgentStatus is unknown: the agent's CLI does
	// not say what it is doing, or what it says cannot be read now (an
	// unreadable rollout file); empty once it can be read (superclaude's
	// addition).
	AgentUnknown string
	// Limit names a usage or rate limit that stopped the agent, and
	// LimitedUntil when it resets; both are cleared once the agent goes on
	// (superclaude's addition).
	Limit        string
	LimitedUntil time.Time
	// NoProgress counts the restarts in a row whose fresh agent ended
	// before it activated the session; Halted is why the progress breaker
	// stopped restarting it, and HaltedAt when. Activate and `+session
	// reset` clear them (superclaude's addition: the circuit breaker of
	// the seeds' session manager).
	NoProgress int
	Halted     string
	HaltedAt   time.Time
	// LastExit says how the session's last agent ended — crash, limit,
	// no-progress, user-exit, stopped or restarted — and LastExitAt when
	// (superclaude's addition).
	LastExit   string
	LastExitAt time.Time
	// Handoff is the handoff marker: set when a fresh agent is started
	// with the restart prompt, read and cleared by that agent's first
	// SessionStart, which tells it that its predecessor's dehydrate and
	// restart are done, and must not be run again (superclaude's
	// addition).
	Handoff string
	// ProjectDir is the working directory of the agent that activated the
	// session, so that a view can list one project's sessions
	// (superclaude's addition).
	ProjectDir string
	// PendingPrompts are the prompts the person typed that no finished
	// turn has answered yet, oldest first, as the agent's
	// UserPromptSubmit hook received them — before the agent sent them
	// anywhere, so before its transcript holds them. A restart carries
	// them into the fresh agent's first prompt; the Stop hook of the turn
	// that answers them removes them (superclaude's addition).
	PendingPrompts []Prompt
	// LastPromptID and LastPromptAt name the last prompt any hook saw
	// submitted, the person's or superclaude's own (a restart prompt):
	// the Stop hook of its turn answers every prompt before it
	// (superclaude's addition).
	LastPromptID string
	LastPromptAt time.Time
	// LimitContinue says who goes on once Limit resets: "superclaude"
	// (it types continue), "claude" (Claude Code's own auto-continue is
	// on), or "off" (nobody: the person must). Empty in files written
	// before it existed (superclaude's addition).
	LimitContinue string
	// AgentProfile names the agent CLI the session's supervisor runs:
	// claude, codex, gemini … (superclaude's addition).
	AgentProfile string
	// ConversationUnknown says why the conversation of the session's agent
	// cannot be learned — its CLI does not tell, or was started on a
	// conversation it names by position — so that a restart starts a new
	// conversation; empty once one is learned (superclaude's addition).
	ConversationUnknown string

	// extra holds the fields this package does not know, verbatim.
	extra map[string]json.RawMessage
	// exists is false for a State that Update made up because the file
	// did not exist yet.
	exists bool
}

// Who goes on after a usage or rate limit resets: the values of
// State.LimitContinue.
const (
	LimitBySuperclaude = "superclaude" // superclaude types continue
	LimitByClaude      = "claude"      // Claude Code's own auto-continue is on
	LimitByNobody      = "off"         // superclaude's is off: the person goes on
)

// Prompt is one prompt the person typed, as the agent's hook received it.
type Prompt struct {
	// ID is the agent's id of the prompt (Claude Code's prompt_id), which
	// its Stop hook names again.
	ID string `json:"id,omitempty"`
	// At is when the hook received it.
	At time.Time `json:"at"`
	// Text is the prompt, verbatim.
	Text string `json:"text"`
	// TurnAskedRestart marks a prompt that was pending when the agent's
	// own turn asked for a restart: the agent had it, was answering it,
	// and the restart was that turn's doing (perhaps what the prompt
	// asked for). A restart hands it on as begun, never as unanswered
	// (CarryText).
	TurnAskedRestart bool `json:"turnAskedRestart,omitempty"`
	// By is the identity of the supervisor (pid:start:boot, its
	// SUPERCLAUDE_SUPERVISOR) whose agent's prompt hook recorded it. A
	// supervisor carries over a restart only the prompts recorded under
	// itself: a prompt in a file a repository shipped, or one written
	// with `+session update`, is nobody's words (superclaude's addition).
	By string `json:"by,omitempty"`
	// Typed marks a prompt no hook noted: its Enter reached the agent
	// after the agent's last prompt, and the agent ended before it took
	// it; the supervisor read it back from the keys it had relayed
	// (child.Agent.Typed). At is when its Enter reached the agent.
	Typed bool `json:"typed,omitempty"`
}

// Exists reports whether the state was read from a file, as opposed to
// made up by [Store.Update] for a session that has no file yet.
func (s *State) Exists() bool { return s.exists }

// Extra returns the raw JSON of a field this package does not know.
func (s *State) Extra(key string) (json.RawMessage, bool) {
	v, ok := s.extra[key]
	return v, ok
}

// SetExtra sets a field this package does not know; nil deletes it.
func (s *State) SetExtra(key string, v json.RawMessage) {
	if v == nil {
		delete(s.extra, key)
		return
	}
	if s.extra == nil {
		s.extra = map[string]json.RawMessage{}
	}
	s.extra[key] = v
}

// Clone returns a deep copy of s.
func (s *State) Clone() *State {
	c := *s
	if s.Loading != nil {
		v := *s.Loading
		c.Loading = &v
	}
	if s.ToolCallsByTranscript != nil {
		c.ToolCallsByTranscript = make(map[string]int, len(s.ToolCallsByTranscript))
		for k, v := range s.ToolCallsByTranscript {
			c.ToolCallsByTranscript[k] = v
		}
	}
	if s.PendingPrompts != nil {
		c.PendingPrompts = append([]Prompt(nil), s.PendingPrompts...)
	}
	if s.extra != nil {
		c.extra = make(map[string]json.RawMessage, len(s.extra))
		for k, v := range s.extra {
			c.extra[k] = append(json.RawMessage(nil), v...)
		}
	}
	return &c
}

// field describes one known key: how to read it into a State, how to write
// it out, and whether it is present.
type field struct {
	name  string
	index int // in fields
	// decode reads raw into s; its error names what was wanted.
	decode func(s *State, raw json.RawMessage) error
	// encode returns the value to write, or ok=false to leave the key out.
	encode func(s *State) (v any, ok bool)
}

func strField(name string, always bool, get func(*State) *string) field {
	return field{
		name: name,
		decode: func(s *State, raw json.RawMessage) error {
			if isNull(raw) {
				*get(s) = ""
				return nil
			}
			if v, ok := rawjson.PlainString(raw); ok {
				*get(s) = v
				return nil
			}
			if err := json.Unmarshal(raw, get(s)); err != nil {
				return fmt.Errorf("want a string, got %s", kind(raw))
			}
			return nil
		},
		encode: func(s *State) (any, bool) {
			v := *get(s)
			return v, always || v != ""
		},
	}
}

func intField(name string, always bool, get func(*State) *int) field {
	return field{
		name: name,
		decode: func(s *State, raw json.RawMessage) error {
			f, err := rawjson.Number(raw)
			if err != nil {
				return fmt.Errorf("want a number, got %s", kind(raw))
			}
			if f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
				return fmt.Errorf("want a whole number ≥ 0, got %s", raw)
			}
			*get(s) = int(f)
			return nil
		},
		encode: func(s *State) (any, bool) {
			v := *get(s)
			return v, always || v != 0
		},
	}
}

func boolField(name string, get func(*State) *bool) field {
	return field{
		name: name,
		decode: func(s *State, raw json.RawMessage) error {
			switch string(raw) {
			case "true":
				*get(s) = true
			case "false":
				*get(s) = false
			default:
				return fmt.Errorf("want true or false, got %s", kind(raw))
			}
			return nil
		},
		encode: func(s *State) (any, bool) { return *get(s), true },
	}
}

func timeField(name string, get func(*State) *time.Time) field {
	return field{
		name: name,
		decode: func(s *State, raw json.RawMessage) error {
			v, ok := rawjson.PlainString(raw)
			if !ok {
				if err := json.Unmarshal(raw, &v); err != nil {
					return fmt.Errorf("want an RFC 3339 time string, got %s", kind(raw))
				}
			}
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return fmt.Errorf("want an RFC 3339 time, got %q", v)
			}
			*get(s) = t
			return nil
		},
		encode: func(s *State) (any, bool) {
			t := *get(s)
			return FormatTime(t), !t.IsZero()
		},
	}
}

// floatField is a number ≥ 0 that is left out while it is 0.
func floatField(name string, get func(*State) *float64) field {
	return field{
		name: name,
		decode: func(s *State, raw json.RawMessage) error {
			v, err := rawjson.Number(raw)
			if err != nil {
				return fmt.Errorf("want a number, got %s", kind(raw))
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("want a number ≥ 0, got %s", raw)
			}
			*get(s) = v
			return nil
		},
		encode: func(s *State) (any, bool) { return *get(s), *get(s) != 0 },
	}
}

// preciseTimeField is a timeField kept to the nanosecond, for times that
// order events closer together than a second.
func preciseTimeField(name string, get func(*State) *time.Time) field {
	f := timeField(name, get)
	f.encode = func(s *State) (any, bool) {
		t := *get(s)
		return t.UTC().Format(time.RFC3339Nano), !t.IsZero()
	}
	return f
}

// FormatTime renders t the way .state.json stores times: RFC 3339 in UTC,
// to the second, as the seeds' `date -u +%Y-%m-%dT%H:%M:%SZ` did.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// fields lists the known keys in the order files are written: the replaced
// scripts' keys in their order (with pidStart and pidBoot beside the pid
// they complete), then superclaude's own, then unknown keys sorted by name.
var fields = []field{
	intField("pid", true, func(s *State) *int { return &s.PID }),
	{
		name: "pidStart",
		decode: func(s *State, raw json.RawMessage) error {
			if n, err := strconv.ParseUint(string(raw), 10, 64); err == nil {
				s.PIDStart = n // the common case, without json.Unmarshal's setup
				return nil
			}
			if err := json.Unmarshal(raw, &s.PIDStart); err != nil {
				return fmt.Errorf("want a whole number ≥ 0, got %s", raw)
			}
			return nil
		},
		encode: func(s *State) (any, bool) { return s.PIDStart, s.PIDStart != 0 },
	},
	strField("pidBoot", false, func(s *State) *string { return &s.PIDBoot }),
	strField("sessionId", false, func(s *State) *string { return &s.SessionID }),
	strField("skill", true, func(s *State) *string { return &s.Skill }),
	{
		name: "lifecycle",
		decode: func(s *State, raw json.RawMessage) error {
			v, ok := rawjson.Unquote(raw)
			if !ok && json.Unmarshal(raw, &v) != nil {
				return fmt.Errorf("want a string, got %s", kind(raw))
			}
			if !validLifecycle(Lifecycle(v)) {
				return fmt.Errorf("%q is not one of %s", v, lifecycleList())
			}
			s.Lifecycle = Lifecycle(v)
			return nil
		},
		encode: func(s *State) (any, bool) { return s.Lifecycle, true },
	},
	{
		name: "loading",
		decode: func(s *State, raw json.RawMessage) error {
			var v bool
			switch string(raw) {
			case "true", "false":
				v = string(raw) == "true"
			default:
				if err := json.Unmarshal(raw, &v); err != nil {
					return fmt.Errorf("want true or false, got %s", kind(raw))
				}
			}
			s.Loading = &v
			return nil
		},
		encode: func(s *State) (any, bool) {
			if s.Loading == nil {
				return nil, false
			}
			return *s.Loading, true
		},
	},
	boolField("overflowed", func(s *State) *bool { return &s.Overflowed }),
	boolField("killRequested", func(s *State) *bool { return &s.KillRequested }),
	{
		name: "contextUsage",
		decode: func(s *State, raw json.RawMessage) error {
			v, err := rawjson.Number(raw)
			if err != nil {
				return fmt.Errorf("want a number, got %s", kind(raw))
			}
			if v < 0 || math.IsNaN(v) {
				return fmt.Errorf("want a fraction ≥ 0, got %s", raw)
			}
			s.ContextUsage = v
			return nil
		},
		encode: func(s *State) (any, bool) { return s.ContextUsage, true },
	},
	strField("currentPhase", false, func(s *State) *string { return &s.CurrentPhase }),
	strField("fleetPaneId", false, func(s *State) *string { return &s.FleetPaneID }),
	strField("targetFile", false, func(s *State) *string { return &s.TargetFile }),
	strField("sessionDescription", false, func(s *State) *string { return &s.SessionDescription }),
	strField("keywords", false, func(s *State) *string { return &s.Keywords }),
	timeField("startedAt", func(s *State) *time.Time { return &s.StartedAt }),
	timeField("lastHeartbeat", func(s *State) *time.Time { return &s.LastHeartbeat }),
	strField("restartPrompt", false, func(s *State) *string { return &s.RestartPrompt }),
	intField("toolCallsSinceLastLog", true, func(s *State) *int { return &s.ToolCallsSinceLastLog }),
	{
		name: "toolCallsByTranscript",
		decode: func(s *State, raw json.RawMessage) error {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				return fmt.Errorf("want an object of counts, got %s", kind(raw))
			}
			out := make(map[string]int, len(m))
			for k, v := range m {
				var f float64
				if err := json.Unmarshal(v, &f); err != nil || f < 0 || f != math.Trunc(f) {
					return fmt.Errorf("key %q: want a whole number ≥ 0, got %s", k, v)
				}
				out[k] = int(f)
			}
			s.ToolCallsByTranscript = out
			return nil
		},
		encode: func(s *State) (any, bool) {
			return s.ToolCallsByTranscript, s.ToolCallsByTranscript != nil
		},
	},
	intField("toolUseWithoutLogsWarnAfter", true, func(s *State) *int { return &s.ToolUseWithoutLogsWarnAfter }),
	intField("toolUseWithoutLogsBlockAfter", true, func(s *State) *int { return &s.ToolUseWithoutLogsBlockAfter }),
	intField("restarts", false, func(s *State) *int { return &s.Restarts }),
	preciseTimeField("activatedAt", func(s *State) *time.Time { return &s.ActivatedAt }),
	{
		name: "auto",
		decode: func(s *State, raw json.RawMessage) error {
			if err := json.Unmarshal(raw, &s.Auto); err != nil {
				return fmt.Errorf("want true or false, got %s", kind(raw))
			}
			return nil
		},
		encode: func(s *State) (any, bool) { return s.Auto, s.Auto },
	},
	strField("projectDir", false, func(s *State) *string { return &s.ProjectDir }),
	strField("transcriptPath", false, func(s *State) *string { return &s.TranscriptPath }),
	floatField("costUSD", func(s *State) *float64 { return &s.CostUSD }),
	strField("agentStatus", false, func(s *State) *string { return &s.AgentStatus }),
	timeField("agentStatusAt", func(s *State) *time.Time { return &s.AgentStatusAt }),
	strField("agentUnknown", false, func(s *State) *string { return &s.AgentUnknown }),
	strField("limit", false, func(s *State) *string { return &s.Limit }),
	timeField("limitedUntil", func(s *State) *time.Time { return &s.LimitedUntil }),
	intField("restartsWithoutProgress", false, func(s *State) *int { return &s.NoProgress }),
	strField("halted", false, func(s *State) *string { return &s.Halted }),
	timeField("haltedAt", func(s *State) *time.Time { return &s.HaltedAt }),
	strField("lastExit", false, func(s *State) *string { return &s.LastExit }),
	timeField("lastExitAt", func(s *State) *time.Time { return &s.LastExitAt }),
	strField("handoff", false, func(s *State) *string { return &s.Handoff }),
	{
		name: "pendingPrompts",
		decode: func(s *State, raw json.RawMessage) error {
			if isNull(raw) {
				s.PendingPrompts = nil
				return nil
			}
			var v []Prompt
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("want a list of {id, at, text}, got %s", kind(raw))
			}
			s.PendingPrompts = v
			return nil
		},
		encode: func(s *State) (any, bool) { return s.PendingPrompts, len(s.PendingPrompts) > 0 },
	},
	strField("lastPromptId", false, func(s *State) *string { return &s.LastPromptID }),
	preciseTimeField("lastPromptAt", func(s *State) *time.Time { return &s.LastPromptAt }),
	strField("limitContinue", false, func(s *State) *string { return &s.LimitContinue }),
	strField("agentProfile", false, func(s *State) *string { return &s.AgentProfile }),
	strField("conversationUnknown", false, func(s *State) *string { return &s.ConversationUnknown }),
}

var fieldByName = func() map[string]*field {
	if len(fields) > 64 {
		panic("state: decodeMembers marks the fields read in a uint64")
	}
	m := make(map[string]*field, len(fields))
	for i := range fields {
		fields[i].index = i
		m[fields[i].name] = &fields[i]
	}
	return m
}()

// requiredFields must be present in every file.
var requiredFields = [...]string{"pid", "lifecycle", "startedAt"}

func validLifecycle(l Lifecycle) bool {
	for _, v := range Lifecycles {
		if v == l {
			return true
		}
	}
	return false
}

func lifecycleList() string {
	var b bytes.Buffer
	for i, v := range Lifecycles {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(v))
	}
	return b.String()
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// kind names the JSON type of raw for error messages.
func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string " + string(t)
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean " + string(t)
	case 'n':
		return "null"
	default:
		return "a number " + string(t)
	}
}

// decode parses a .state.json document. Errors are *fieldError so that the
// caller can name the file.
func decode(data []byte) (*State, error) {
	if s, err, ok := decodeMembers(data); ok {
		return s, err
	}
	return decodeGeneral(data)
}

// decodeGeneral is decode for any document.
func decodeGeneral(data []byte) (*State, error) {
	raw, ok := rawjson.Object(data)
	if !ok {
		// Not one valid object: the decoder says what it is instead.
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&raw); err != nil {
			return nil, &fieldError{problem: describeSyntax(data, err)}
		}
		if raw == nil {
			return nil, &fieldError{problem: "want a JSON object, got null"}
		}
		if dec.More() {
			return nil, &fieldError{problem: "more than one JSON value"}
		}
	}
	s := &State{exists: true}
	for _, name := range requiredFields {
		if _, ok := raw[name]; !ok {
			return nil, &fieldError{field: name, problem: "required field is missing"}
		}
	}
	for key, v := range raw {
		f, known := fieldByName[key]
		if !known {
			s.SetExtra(key, bytes.Clone(v)) // not data's array, kept whole for one key
			continue
		}
		if err := f.decode(s, v); err != nil {
			return nil, &fieldError{field: key, problem: err.Error()}
		}
	}
	return s, nil
}

// decodeMembers is decode for the common file, one valid object whose
// known keys each appear once, read member by member as it is (a +status
// of 10,000 sessions decodes 10,000): no map of its members is built and
// walked. ok is false for any other file, which decode reads the general
// way. A file missing a required field is refused for that first, as
// decode refuses it, whatever else is wrong with it.
func decodeMembers(data []byte) (s *State, err error, ok bool) {
	s = &State{exists: true}
	var seen [len(requiredFields)]bool
	var known uint64 // the fields read, by index; fields has fewer than 64
	dup := false
	valid := rawjson.Members(data, func(key, v []byte) bool {
		for i, name := range requiredFields {
			if string(key) == name {
				seen[i] = true
			}
		}
		f, isKnown := fieldByName[string(key)]
		if !isKnown {
			s.SetExtra(string(key), bytes.Clone(v)) // not data's array, kept whole for one key
			return true
		}
		bit := uint64(1) << f.index
		if known&bit != 0 {
			dup = true // the last one counts, as in decode: read it the general way
			return false
		}
		known |= bit
		if err == nil {
			if ferr := f.decode(s, v); ferr != nil {
				err = &fieldError{field: string(key), problem: ferr.Error()}
			}
		}
		return true
	})
	if dup || !valid {
		return nil, nil, false
	}
	for i, name := range requiredFields {
		if !seen[i] {
			return nil, &fieldError{field: name, problem: "required field is missing"}, true
		}
	}
	if err != nil {
		return nil, err, true
	}
	return s, nil, true
}

func describeSyntax(data []byte, err error) string {
	if len(bytes.TrimSpace(data)) == 0 {
		return "file is empty"
	}
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, se)
	}
	if err.Error() == "unexpected EOF" {
		return "not valid JSON: truncated"
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Sprintf("want a JSON object, got %s", te.Value)
	}
	return "not valid JSON: " + err.Error()
}

// MarshalJSON writes the known fields in schema order, then the unknown ones
// sorted by key, indented by two spaces as jq writes.
func (s *State) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v json.RawMessage) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	for _, f := range fields {
		v, ok := f.encode(s)
		if !ok {
			continue
		}
		enc, err := marshalValue(v)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.name, err)
		}
		put(f.name, enc)
	}
	keys := make([]string, 0, len(s.extra))
	for k := range s.extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		put(k, s.extra[k])
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func marshalValue(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// UnmarshalJSON parses a .state.json document, keeping unknown fields.
func (s *State) UnmarshalJSON(data []byte) error {
	d, err := decode(data)
	if err != nil {
		return err
	}
	*s = *d
	return nil
}

// Parse reads and validates a .state.json document. now bounds the
// timestamps; errors are [*Error] without a file name.
func Parse(data []byte, now time.Time) (*State, error) {
	s, err := decode(data)
	if err == nil {
		err = s.validate(now)
	}
	if err != nil {
		return nil, asError("", err)
	}
	return s, nil
}

// LastActivity is the latest sign of life the state records: its heartbeat
// (a phase, a log, a status line that runs with no supervisor), the
// agent's last change between busy, idle and waiting, its activation or
// creation, how its last agent ended, a halt. It is the one "last
// activity" of every view: +status's ACTIVITY and the idle time
// `+session prune --older-than` counts (issue 19: the two disagreed, 7
// minutes idle in one and under a minute in the other). A supervisor
// writes no heartbeat of its own, only changes: a view asks a live one
// whether it answers (control.Ask) rather than read its age here.
func (s *State) LastActivity() time.Time {
	t := s.LastHeartbeat
	for _, u := range []time.Time{s.AgentStatusAt, s.ActivatedAt, s.StartedAt, s.LastExitAt, s.HaltedAt} {
		if u.After(t) {
			t = u
		}
	}
	return t
}
