package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// This file holds the session commands that session.sh had (activate,
// phase, deactivate, restart, update, target). Each writes exactly the
// fields that are its to write (docs/design.md#who-moves-it), no more;
// TestWriterAudit in ops_test.go checks that field by field.

// Caller is who runs a session command: the supervisor the command belongs
// to (CLAUDE_SUPERVISOR_PID, verified) and the pane it runs in ("" outside
// a fleet).
type Caller struct {
	Owner proc.Identity
	Pane  string
	// Auto marks the supervisor's own activation of a session for an agent
	// whose skills activate none (see State.Auto).
	Auto bool
	// ProjectDir is the agent's working directory, recorded when set.
	ProjectDir string
}

// ErrOwned reports that another live supervisor owns a session (invariant
// 2: one live owner per session).
var ErrOwned = errors.New("session is owned by another live supervisor")

// Activate creates or re-activates a session for skill, owned by c.Owner in
// c.Pane. It writes pid, skill, lifecycle=active, loading=true,
// overflowed=false, killRequested=false, fleetPaneId, startedAt (when
// new), toolCallsSinceLastLog=0 and the heartbeat thresholds 3 and 10 —
// what session.sh activate wrote — and superclaude's activatedAt, auto
// and projectDir.
//
// An auto activation (the supervisor's own session, see State.Auto) also
// deletes sessionId: it starts a new conversation.
//
// It refuses a session whose recorded owner is a different process that is
// still alive (invariant 2), and it clears fleetPaneId from the session
// that held c.Pane before (invariant 1: one session per pane). A session
// the supervisor had activated on its own (auto) that this activation
// takes over from is marked completed: the agent works in the new one now,
// and the old one must not look like a second live session of the pane.
func (s *Store) Activate(name, skill string, c Caller) (*State, error) {
	dir, err := s.Dir(name)
	if err != nil {
		return nil, err
	}
	var prevPane, prevAuto *Session
	if c.Pane != "" {
		if p, err := s.FindByPane(c.Pane); err == nil && p.Dir != dir {
			prevPane = p
		}
	}
	// latest is the owner's latest activation so far, of any session.
	var latest time.Time
	if p, err := s.FindByOwner(c.Owner); err == nil {
		latest = p.State.ActivatedAt
		if !c.Auto && p.Dir != dir && p.State.Auto && p.State.Lifecycle != Completed {
			prevAuto = p
		}
	}
	reason := "activate"
	if skill != "" {
		reason += " " + skill
	}
	if c.Auto {
		reason = "activate (the supervisor's own session)"
	}
	st, err := s.Update(name, reason, func(st *State) error {
		if st.Exists() && st.PID > 0 && !OwnedBy(st, c.Owner) && OwnerAlive(st) {
			return fmt.Errorf("%w: %s belongs to pid %d", ErrOwned, name, st.PID)
		}
		loading := true
		st.PID, st.PIDStart, st.PIDBoot = c.Owner.PID, c.Owner.Start, c.Owner.Boot
		st.Skill = skill
		st.Lifecycle = Active
		st.Loading = &loading
		st.Overflowed = false
		st.KillRequested = false
		st.FleetPaneID = c.Pane
		if st.StartedAt.IsZero() {
			st.StartedAt = s.now()
		}
		// Strictly later than the last activation, even on a clock that
		// stood still or stepped back: the latest activation decides which
		// session its supervisor's agent works in.
		if st.ActivatedAt.After(latest) {
			latest = st.ActivatedAt
		}
		st.ActivatedAt = s.now()
		if !st.ActivatedAt.After(latest) {
			st.ActivatedAt = latest.Add(time.Nanosecond)
		}
		// A skill-less re-activation of the supervisor's own session (the
		// continuation of a restart does that) keeps it the supervisor's.
		st.Auto = c.Auto || (st.Auto && skill == "")
		// A new agent took over: the progress breaker is re-armed.
		st.NoProgress, st.Halted, st.HaltedAt = 0, "", time.Time{}
		if c.Auto {
			// The supervisor's own session starts a new conversation;
			// a reused directory's old id is not it.
			st.SessionID = ""
		}
		if c.ProjectDir != "" {
			st.ProjectDir = c.ProjectDir
		}
		st.ToolCallsSinceLastLog = 0
		st.ToolUseWithoutLogsWarnAfter = DefaultWarnAfter
		st.ToolUseWithoutLogsBlockAfter = DefaultBlockAfter
		return nil
	})
	if err != nil {
		return nil, err
	}
	if prevPane != nil {
		_, err := prevPane.Store.Update(prevPane.Name, "pane "+c.Pane+" claimed by "+name, func(o *State) error {
			if !o.Exists() {
				return errSkip
			}
			if o.FleetPaneID == c.Pane {
				o.FleetPaneID = ""
			}
			return nil
		})
		if err != nil && !errors.Is(err, errSkip) {
			s.report(fmt.Errorf("activate %s: releasing pane %s from %s: %w", name, c.Pane, prevPane.Name, err))
		}
	}
	if prevAuto != nil {
		_, err := prevAuto.Store.Update(prevAuto.Name, "taken over by "+dir, func(o *State) error {
			if !o.Exists() || !o.Auto || !OwnedBy(o, c.Owner) {
				return errSkip
			}
			o.Lifecycle = Completed
			if o.SessionDescription == "" {
				o.SessionDescription = "The supervisor's own session, until " + dir + " was activated."
			}
			return nil
		})
		if err != nil && !errors.Is(err, errSkip) {
			s.report(fmt.Errorf("activate %s: retiring %s: %w", name, prevAuto.Name, err))
		}
	}
	return st, nil
}

var errSkip = errors.New("skip")

// existing runs Update on a session that must already exist.
func (s *Store) existing(name, reason string, fn func(*State) error) (*State, error) {
	if !s.Exists(name) {
		return nil, fmt.Errorf("session %s: %w", name, ErrNoSession)
	}
	return s.Update(name, reason, func(st *State) error {
		if !st.Exists() {
			return fmt.Errorf("session %s: %w", name, ErrNoSession)
		}
		return fn(st)
	})
}

// Phase records the skill phase: currentPhase, lastHeartbeat, loading
// deleted, toolCallsByTranscript reset to {}.
func (s *Store) Phase(name, phase string) (*State, error) {
	return s.existing(name, "phase "+phase, func(st *State) error {
		st.CurrentPhase = phase
		st.LastHeartbeat = s.now()
		st.Loading = nil
		st.ToolCallsByTranscript = map[string]int{}
		return nil
	})
}

// Deactivate marks the session completed: lifecycle=completed,
// lastHeartbeat, and sessionDescription and keywords when given.
func (s *Store) Deactivate(name, description, keywords string) (*State, error) {
	return s.existing(name, "deactivate", func(st *State) error {
		st.Lifecycle = Completed
		st.LastHeartbeat = s.now()
		if d := strings.TrimSpace(description); d != "" {
			st.SessionDescription = d
		}
		if keywords != "" {
			st.Keywords = keywords
		}
		return nil
	})
}

// RequestRestart prepares an overflow restart, state only: killRequested,
// restartPrompt (what prompt returns for the state under the lock),
// contextUsage=0, sessionId deleted. byTurn says the agent's own turn
// asked for it: every prompt of the person's pending now is marked as
// that turn's (Prompt.TurnAskedRestart), under the same lock, so that a
// prompt typed after the request is not. Killing the agent is the
// supervisor's watchdog's job.
func (s *Store) RequestRestart(name string, byTurn bool, prompt func(st *State) string) (*State, error) {
	return s.existing(name, "restart requested", func(st *State) error {
		if byTurn {
			for i := range st.PendingPrompts {
				st.PendingPrompts[i].TurnAskedRestart = true
			}
		}
		st.KillRequested = true
		st.RestartPrompt = prompt(st)
		st.ContextUsage = 0
		st.SessionID = ""
		return nil
	})
}

// Reset re-arms the progress breaker of a halted session (`+session
// reset`): restartsWithoutProgress, halted and haltedAt cleared.
func (s *Store) Reset(name string) (*State, error) {
	return s.existing(name, "reset: the progress breaker re-armed", func(st *State) error {
		st.NoProgress, st.Halted, st.HaltedAt = 0, "", time.Time{}
		return nil
	})
}

// Target sets targetFile, the file the status line shows.
func (s *Store) Target(name, file string) (*State, error) {
	if OwnFile(file) {
		return nil, errOwnFile(file)
	}
	return s.existing(name, "target "+file, func(st *State) error {
		st.TargetFile = file
		return nil
	})
}

// Set is the generic `update key=value …`. A known field takes its value
// as JSON when it parses as the field's type, else as a string; an unknown
// field takes JSON when the value parses, else a string, and an empty
// value deletes it. A value of the wrong type names the field.
func (s *Store) Set(name string, assignments []string) (*State, error) {
	type kv struct {
		key string
		val string
	}
	var pairs []kv
	for _, a := range assignments {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("update: %q is not key=value", a)
		}
		pairs = append(pairs, kv{k, v})
	}
	return s.existing(name, "update", func(st *State) error {
		for _, p := range pairs {
			if err := setField(st, p.key, p.val); err != nil {
				return err
			}
		}
		return nil
	})
}

// updatable are the known fields `update` may set: a skill's own
// (currentPhase, its description and keywords) and the logging
// heartbeat's thresholds, which the seeds let a skill tune. Every other
// known field is superclaude's own — who owns the session, its
// conversation, its lifecycle, the overflow and kill flags, the usage, the
// restart prompt, the handoff, the person's pending prompts — which only
// its commands, hooks and supervisor write: set by hand (from the agent's
// Bash tool, say), they steer the supervisor, open the guard or plant
// words in the next agent's first prompt. A key superclaude does not know
// is the skill's own, and always updatable.
var updatable = map[string]bool{
	"currentPhase":                 true,
	"sessionDescription":           true,
	"keywords":                     true,
	"toolCallsSinceLastLog":        true,
	"toolUseWithoutLogsWarnAfter":  true,
	"toolUseWithoutLogsBlockAfter": true,
}

// setBy names the command that sets a field `update` refuses, for its
// message.
var setBy = map[string]string{
	"skill":         "superclaude +session activate",
	"lifecycle":     "superclaude +session activate, deactivate or restart",
	"targetFile":    "superclaude +session target",
	"killRequested": "superclaude +session restart",
	"restartPrompt": "superclaude +session restart",
}

// errOwnField is update's refusal of superclaude's own field key.
func errOwnField(key string) error {
	msg := fmt.Sprintf("update: field %q is superclaude's own, which only superclaude writes (a skill may set its own keys, and currentPhase, sessionDescription, keywords and the logging thresholds)", key)
	if cmd := setBy[key]; cmd != "" {
		msg += "; " + cmd + " sets it"
	}
	return errors.New(msg)
}

// ownName reports whether key names one of superclaude's own fields, in
// any case (a reader that matched names loosely must not find one).
func ownName(key string) bool {
	for name := range fieldByName {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

func setField(st *State, key, val string) error {
	f, known := fieldByName[key]
	if !updatable[key] && ownName(key) {
		return errOwnField(key)
	}
	if !known {
		if val == "" {
			st.SetExtra(key, nil)
			return nil
		}
		raw := json.RawMessage(val)
		if !json.Valid(raw) {
			raw = json.RawMessage(quote(val))
		}
		st.SetExtra(key, raw)
		return nil
	}
	raw := bytes.TrimSpace([]byte(val))
	var err error
	if json.Valid(raw) {
		if err = f.decode(st, raw); err == nil {
			return nil
		}
	}
	if err2 := f.decode(st, json.RawMessage(quote(val))); err2 == nil {
		return nil
	} else if err == nil {
		err = err2
	}
	return fmt.Errorf("update: field %q: %v", key, err)
}
