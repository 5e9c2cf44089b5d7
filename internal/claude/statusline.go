package claude

import (
	"encoding/json"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// StatusLine is the part of Claude Code's status-line JSON superclaude uses.
// Every field is optional: a payload missing any of them still renders.
type StatusLine struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Model          struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
	Version string `json:"version"`
	Cost    struct {
		TotalCostUSD float64 `json:"total_cost_usd"`
	} `json:"cost"`
	ContextWindow struct {
		ContextWindowSize int `json:"context_window_size"`
		// UsedPercentage is null at startup, before the first reply.
		UsedPercentage      *float64 `json:"used_percentage"`
		RemainingPercentage *float64 `json:"remaining_percentage"`
	} `json:"context_window"`
	SessionName string `json:"session_name"`
	// RateLimits is there for a subscriber after the first reply.
	RateLimits RateLimits `json:"rate_limits"`
}

// ParseStatusLine reads a status-line payload. Malformed input yields an
// empty StatusLine and the error; the caller still prints a line.
func ParseStatusLine(data []byte) (StatusLine, error) {
	if s, ok := decodeStatusLine(data); ok {
		return s, nil
	}
	var s StatusLine
	if err := json.Unmarshal(data, &s); err != nil {
		return StatusLine{}, err
	}
	return s, nil
}

// Usage returns the context used as a fraction (0.0–1.0), and false when the
// payload has none (startup, or a malformed payload).
func (s StatusLine) Usage() (float64, bool) {
	if s.ContextWindow.UsedPercentage == nil {
		return 0, false
	}
	return *s.ContextWindow.UsedPercentage / 100, true
}

// Bind applies one status-line tick to the session's state, as
// statusline.sh did: lastHeartbeat always; a usage window the tick shows used
// up, as the session's limit until its reset; the conversation's cost as the
// sessionId guards allow; contextUsage when the tick has a
// usage (null at startup leaves the stored value); sessionId unless a kill
// was requested, the context overflowed or the session is dehydrating —
// the guards of race R1, which stop a tick from resurrecting the id that
// `session restart` deleted — and with it the transcript's path, which the
// supervisor dehydrates from. A session that was resuming becomes active:
// the first tick of the resumed conversation proves it is running. It
// reports whether anything but the heartbeat changed.
func Bind(st *state.State, tick StatusLine, now time.Time) bool {
	before := st.Clone()
	st.LastHeartbeat = now
	if u, ok := tick.Usage(); ok {
		st.ContextUsage = u
	}
	if l, ok := tick.RateLimits.Limit(); ok && now.Before(l.Until) {
		st.Limit, st.LimitedUntil = l.Kind, l.Until
	}
	if c := tick.Cost.TotalCostUSD; c > 0 && !st.KillRequested && !st.Overflowed && st.Lifecycle != state.Dehydrating {
		st.CostUSD = c
	}
	if tick.SessionID != "" && !st.KillRequested && !st.Overflowed && st.Lifecycle != state.Dehydrating {
		st.SessionID = tick.SessionID
		if tick.TranscriptPath != "" {
			st.TranscriptPath = tick.TranscriptPath
		}
		if st.Lifecycle == state.Resuming {
			st.Lifecycle = state.Active
		}
	}
	return st.SessionID != before.SessionID || st.ContextUsage != before.ContextUsage || st.Lifecycle != before.Lifecycle ||
		st.TranscriptPath != before.TranscriptPath || st.CostUSD != before.CostUSD ||
		st.Limit != before.Limit || !st.LimitedUntil.Equal(before.LimitedUntil)
}

// Claim is the status line's PID claim: a session found for
// this agent whose recorded owner is another process, now dead, is taken
// over by the supervisor the agent runs under — the seeds' run.sh after a
// fleet restart, or superclaude. A live owner is never displaced
// (invariant 2). It reports whether it claimed.
func Claim(st *state.State, supervisor proc.Identity, ownerAlive bool) bool {
	if supervisor.IsZero() || st.PID == supervisor.PID || ownerAlive {
		return false
	}
	st.PID, st.PIDStart, st.PIDBoot = supervisor.PID, supervisor.Start, supervisor.Boot
	return true
}
