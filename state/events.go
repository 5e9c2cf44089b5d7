package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unicode/utf8"
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

// eventFields is Event without its methods, for its JSON.
type eventFields Event

// eventWire is an event as a line of the log: a session name that is not
// valid UTF-8 (a directory name is bytes) is carried exactly in
// sessionBytes (base64), beside "session", where JSON can only give it
// with U+FFFD for each bad byte — which made the name's events unfindable.
type eventWire struct {
	eventFields
	SessionBytes []byte `json:"sessionBytes,omitempty"`
}

// MarshalJSON writes the event as a line of the log.
func (e Event) MarshalJSON() ([]byte, error) {
	w := eventWire{eventFields: eventFields(e)}
	if !utf8.ValidString(e.Session) {
		w.SessionBytes = []byte(e.Session)
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a line of the log, the session name's bytes as they
// were.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w eventWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Event(w.eventFields)
	if len(w.SessionBytes) > 0 {
		e.Session = string(w.SessionBytes)
	}
	return nil
}

func (s *Store) eventsPath() string { return filepath.Join(s.Root, EventsFile) }

// rotatedPath is where a full event log is moved (rotateEvents): the
// older half of the history, read before the current log.
func (s *Store) rotatedPath() string { return s.eventsPath() + ".1" }

// Append writes ev to the event log as one whole line (see
// [dirRef.appendLine]: lines from concurrent processes never interleave,
// and a line cut short by a full disk never glues onto the next). Time,
// Actor and PID are filled in when empty. An event log that cannot be
// written never fails the caller's work; the error is returned for the
// caller to log.
//
// The log is never reached through a link: the text of an event comes
// from the state, and sessions/.events.jsonl -> ~/.bashrc would otherwise
// append it to a file a shell runs. A link or anything but a regular file
// where the log goes is moved aside as .events.jsonl.corrupt-<time>
// (never deleted: see [Store.keepAside]) and a new log started.
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
	if s.held != nil && s.held.hold(s.Root, ev) {
		return nil
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if err := s.tree().makeBase(); err != nil {
		return err
	}
	s.rotateEvents()
	root, err := s.tree().open()
	if err != nil {
		return err
	}
	defer root.Close()
	err = root.AppendLine(EventsFile, line)
	if errors.Is(err, ErrUnsafePath) {
		// Under the log's lock, so that two writers never both move
		// things aside (the second would move the first's new log); and
		// only if it is still unsafe, for the same reason.
		l, lerr := s.lockEvents()
		if lerr != nil {
			return errors.Join(err, lerr)
		}
		defer l.Unlock()
		if err = root.AppendLine(EventsFile, line); !errors.Is(err, ErrUnsafePath) {
			return err
		}
		// A link, a FIFO, another user's file, or one every user may
		// write (or read: a planted 0666 log would show them every
		// prompt) is kept aside, and the new log says why.
		kept, kerr := s.keepAside(root, EventsFile)
		if kerr != nil {
			return errors.Join(err, kerr)
		}
		why, _ := json.Marshal(Event{Time: ev.Time, Actor: ev.Actor, PID: ev.PID, Kind: "quarantine",
			Reason: fmt.Sprintf("%v; kept aside as %s and a new event log started", err, filepath.Base(kept))})
		if err = root.AppendLine(EventsFile, append(why, '\n')); err == nil {
			err = root.AppendLine(EventsFile, line)
		}
	}
	return err
}

// lockEvents locks the event log's own lock file. Not the index lock: an
// Update that moves a pane holds that one while it records its
// transitions, and flock(2) locks taken twice in one process (on two
// descriptors) wait for each other for ever.
func (s *Store) lockEvents() (*fileLock, error) {
	return s.tree().lockFile(s.eventsPath() + ".lock")
}

// rotateEvents moves a full event log aside. The size check is one stat;
// the rotation itself happens under the log's lock, so that two writers
// never both rotate (the second would throw the first's .1 away).
func (s *Store) rotateEvents() {
	if size, err := s.tree().fileSize(s.eventsPath()); err != nil || size < MaxEventsSize {
		return
	}
	l, err := s.lockEvents()
	if err != nil {
		return
	}
	defer l.Unlock()
	if size, err := s.tree().fileSize(s.eventsPath()); err == nil && size >= MaxEventsSize {
		s.tree().renameFile(s.eventsPath(), s.rotatedPath())
	}
}

// maxEventLine bounds one line of the event log as read back; longer lines
// are skipped. maxEventsRead bounds how much of one log file is read: only
// its tail, when it is larger (rotation keeps it far smaller, unless
// something else wrote it); a variable for the tests.
const maxEventLine = 1 << 20

var maxEventsRead int64 = 64 << 20

// Events returns the logged events of one session (all sessions when
// session is empty), oldest first, from the rotated log and the current
// one. Lines that do not parse, or are longer than a line can be, are
// skipped. The files are opened read-only, links never followed: a link
// or a FIFO where a log goes is an error naming it.
//
// Oldest first by each event's time, not by its place in the file: a
// supervisor writes the first events of a session it made a few seconds
// late ([Store.HoldEvents]), after lines other processes wrote meanwhile.
func (s *Store) Events(session string) ([]Event, error) {
	var out []Event
	for _, path := range []string{s.rotatedPath(), s.eventsPath()} {
		evs, err := s.readEvents(path, session)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	byTime := func(i, j int) bool { return out[i].Time.Before(out[j].Time) }
	if !sort.SliceIsSorted(out, byTime) {
		sort.SliceStable(out, byTime)
	}
	return out, nil
}

func (s *Store) readEvents(path, session string) ([]Event, error) {
	f, size, err := s.tree().openRead(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("event log: %w", err)
	}
	defer f.Close()
	skipFirst := false
	if size > maxEventsRead {
		if _, err := f.Seek(size-maxEventsRead, io.SeekStart); err != nil {
			return nil, err
		}
		skipFirst = true // the tail starts mid-line
	}
	var out []Event
	needle := []byte(`"session":` + quote(session))
	err = eachLine(f, maxEventLine, func(line []byte) {
		if skipFirst {
			skipFirst = false
			return
		}
		if session != "" && !bytes.Contains(line, needle) {
			return
		}
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			return
		}
		if session == "" || ev.Session == session {
			out = append(out, ev)
		}
	})
	return out, err
}

// eachLine calls fn with every line of r (without its newline; the last
// one even without a newline), skipping lines longer than max bytes.
func eachLine(r io.Reader, max int, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			tooLong = len(line) > max+1
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if !tooLong && len(line) > 0 {
			fn(bytes.TrimSuffix(line, []byte{'\n'}))
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

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// transitionFields are the fields whose changes the log records; usage and
// heartbeat ticks are left out so that the log explains, not floods.
var transitionFields = []string{
	"lifecycle", "overflowed", "killRequested", "sessionId", "pid",
	"fleetPaneId", "skill", "currentPhase", "restartPrompt", "auto",
	"limit", "halted", "lastExit", "handoff", "conversationUnknown",
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
