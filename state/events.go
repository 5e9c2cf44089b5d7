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

// MaxEventsSize is the size past which the event log is rotated: the
// current file becomes EventsFile+".1" (replacing the one before), so the
// log keeps the last 8 to 16 MiB of history — years of restarts — without
// growing for ever.
var MaxEventsSize int64 = 8 << 20

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
	if err := os.MkdirAll(s.Root, 0o700); err != nil {
		return err
	}
	s.rotateEvents()
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

// rotateEvents moves a full event log aside. The size check is one stat;
// the rotation itself happens under the index lock, so that two writers
// never both rotate (the second would throw the first's .1 away).
func (s *Store) rotateEvents() {
	if fi, err := os.Stat(s.eventsPath()); err != nil || fi.Size() < MaxEventsSize {
		return
	}
	l, err := s.index.lock()
	if err != nil {
		return
	}
	defer l.Unlock()
	if fi, err := os.Stat(s.eventsPath()); err == nil && fi.Size() >= MaxEventsSize {
		os.Rename(s.eventsPath(), s.eventsPath()+".1")
	}
}

// Events returns the logged events of one session (all sessions when
// session is empty), oldest first, from the rotated log and the current
// one. Lines that do not parse are skipped.
func (s *Store) Events(session string) ([]Event, error) {
	var out []Event
	for _, path := range []string{s.eventsPath() + ".1", s.eventsPath()} {
		evs, err := readEvents(path, session)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	return out, nil
}

func readEvents(path, session string) ([]Event, error) {
	f, err := os.Open(path)
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
	"fleetPaneId", "skill", "currentPhase", "restartPrompt", "auto",
	"limit", "halted", "lastExit", "handoff",
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
