package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// EventsFile is the append-only event log under the sessions root.
const EventsFile = ".events.jsonl"

// Event is one line of the event log: something happened to a session, when,
// done by whom, and why.
type Event struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	// Actor is who acted: "session activate", "statusline",
	// "hook pre-tool-use", "supervisor", "watchdog" …
	Actor string `json:"actor"`
	// PID is the acting process.
	PID int `json:"pid,omitempty"`
	// Kind says what happened: "transition" for a state change, or an
	// event the supervisor records ("agent-start", "agent-exit", "kill",
	// "decision", "quarantine" …).
	Kind   string `json:"kind"`
	Reason string `json:"reason,omitempty"`
	// Changes maps each changed field to its old and new value.
	Changes map[string][2]any `json:"changes,omitempty"`
	// Detail carries kind-specific facts (exit code, signal, plan …).
	Detail map[string]any `json:"detail,omitempty"`
}

func (s *Store) eventsPath() string { return filepath.Join(s.Root, EventsFile) }

// Append writes ev to the event log as one line. The file is opened with
// O_APPEND and the line written with one write, so lines from concurrent
// processes never interleave. Time, Actor and PID are filled in when empty.
// An event log that cannot be written never fails the caller's work; the
// error is returned for the caller to log.
func (s *Store) Append(ev Event) error {
	if ev.Time.IsZero() {
		ev.Time = s.now()
	}
	ev.Time = ev.Time.UTC()
	if ev.Actor == "" {
		ev.Actor = s.Actor
	}
	if ev.PID == 0 {
		ev.PID = os.Getpid()
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	f, err := os.OpenFile(s.eventsPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Events returns the logged events of one session (all sessions when
// session is empty), oldest first. Lines that do not parse are skipped.
func (s *Store) Events(session string) ([]Event, error) {
	f, err := os.Open(s.eventsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	needle := []byte(`"session":` + quote(session))
	for sc.Scan() {
		line := sc.Bytes()
		if session != "" && !bytes.Contains(line, needle) {
			continue
		}
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		if session == "" || ev.Session == session {
			out = append(out, ev)
		}
	}
	return out, sc.Err()
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// transitionFields are the fields whose changes the log records; usage and
// heartbeat ticks are left out so that the log explains, not floods.
var transitionFields = []string{
	"lifecycle", "overflowed", "killRequested", "sessionId", "pid",
	"fleetPaneId", "skill", "currentPhase", "restartPrompt",
}

// Changes returns the transition fields that differ between before and
// after, each with its old and new value.
func Changes(before, after *State) map[string][2]any {
	out := map[string][2]any{}
	for _, name := range transitionFields {
		f := fieldByName[name]
		bv, bok := f.encode(before)
		av, aok := f.encode(after)
		if !bok {
			bv = nil
		}
		if !aok {
			av = nil
		}
		if bv != av {
			out[name] = [2]any{bv, av}
		}
	}
	return out
}

func (s *Store) recordTransitions(name, reason string, before, after *State) {
	changes := Changes(before, after)
	if len(changes) == 0 {
		return
	}
	s.Append(Event{Session: name, Kind: "transition", Reason: reason, Changes: changes})
}
