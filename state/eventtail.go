package state

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// EventTail keeps the latest event of each session of one or more sessions
// roots, reading each root's event log only from where it left off: a view
// that refreshes (the dashboard) pays for what was appended since its last
// reading, not for the whole log (up to 16 MiB with its rotated half).
// [Store.Events] reads a whole log; both read the files the same way:
// never through a link, never blocking on a FIFO, a line too long to be an
// event skipped, and only the end of a log larger than anything rotation
// leaves.
//
// An EventTail is not safe for concurrent use.
type EventTail struct {
	roots map[string]*logTail
}

// logTail is how far one root's log has been read.
type logTail struct {
	// file is the current log as it was when last read, off how far.
	file fs.FileInfo
	off  int64
	// primed is set once the rotated log has been read.
	primed bool
	// latest is each session's latest event; raw holds its line, which is
	// decoded whole only when it changed (dirty): most lines of a log are
	// superseded by a later one, and decoding only their time and session
	// makes the first reading of a full log several times cheaper.
	latest map[string]*Event
	raw    map[string]lineAt
	dirty  map[string]bool
}

// lineAt is an event's line and time.
type lineAt struct {
	line []byte
	time time.Time
}

// NewEventTail returns a tail that has read nothing yet.
func NewEventTail() *EventTail { return &EventTail{roots: map[string]*logTail{}} }

// Latest returns the latest event of each session of s's root, by the
// session's name. The map is the tail's own: callers read it only, and
// only until the next call.
func (t *EventTail) Latest(s *Store) (map[string]*Event, error) {
	lt := t.roots[s.Root]
	if lt == nil {
		lt = &logTail{latest: map[string]*Event{}, raw: map[string]lineAt{}, dirty: map[string]bool{}}
		t.roots[s.Root] = lt
	}
	if !lt.primed {
		lt.primed = true
		if f, fi, err := s.openLog(s.rotatedPath()); err == nil {
			lt.read(f, 0, fi.Size())
			f.Close()
		}
	}
	f, fi, err := s.openLog(s.eventsPath())
	if errors.Is(err, fs.ErrNotExist) {
		lt.decode()
		return lt.latest, nil
	}
	if err != nil {
		return lt.latest, fmt.Errorf("event log: %w", err)
	}
	defer f.Close()
	if lt.file != nil && !os.SameFile(lt.file, fi) {
		// The log was rotated since the last reading: what was appended
		// to the old file after it is now at the end of the rotated one.
		if old, ofi, err := s.openLog(s.rotatedPath()); err == nil {
			if os.SameFile(lt.file, ofi) {
				lt.read(old, lt.off, ofi.Size())
			}
			old.Close()
		}
		lt.off = 0
	}
	if fi.Size() < lt.off {
		lt.off = 0 // truncated: read it again
	}
	lt.file = fi
	lt.off = lt.read(f, lt.off, fi.Size())
	lt.decode()
	return lt.latest, nil
}

// openLog opens an event log for reading as Events does (tree.openRead),
// with what the tail needs to tell a rotated file from the current one.
func (s *Store) openLog(path string) (*os.File, fs.FileInfo, error) {
	f, _, err := s.tree().openRead(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// decode decodes the lines of the sessions whose latest event changed.
func (lt *logTail) decode() {
	for s := range lt.dirty {
		var ev Event
		if json.Unmarshal(lt.raw[s].line, &ev) == nil {
			lt.latest[s] = &ev
		}
		delete(lt.dirty, s)
	}
}

// read reads the complete lines of f between off and size and returns the
// offset after the last one: a line still being written is read next
// time. Lines that do not parse are skipped, as Events skips them.
func (lt *logTail) read(f *os.File, off, size int64) int64 {
	if size <= off {
		return off
	}
	partial := false
	if size-off > maxEventsRead {
		off = size - maxEventsRead
		// Mid-line, unless the byte before is the end of one.
		var before [1]byte
		_, err := f.ReadAt(before[:], off-1)
		partial = err != nil || before[0] != '\n'
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, off, size-off), 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		n := int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather the rest of it, up
			// to maxEventLine; a longer one is skipped.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				n += int64(len(line))
				if long != nil && len(long)+len(line) <= maxEventLine {
					long = append(long, line...)
				} else {
					long = nil
				}
			}
			line = long
		}
		if err != nil {
			return off // an incomplete last line, or the end
		}
		off += n
		if partial || line == nil {
			partial = false
			continue
		}
		var head struct {
			Time    time.Time `json:"time"`
			Session string    `json:"session"`
			// SessionBytes is a name that is not UTF-8, exactly
			// (eventWire).
			SessionBytes []byte `json:"sessionBytes"`
		}
		if json.Unmarshal(line, &head) != nil || head.Session == "" {
			continue
		}
		name := head.Session
		if len(head.SessionBytes) > 0 {
			name = string(head.SessionBytes)
		}
		if cur, ok := lt.raw[name]; !ok || !head.Time.Before(cur.time) {
			lt.raw[name] = lineAt{line: append([]byte(nil), line...), time: head.Time}
			lt.dirty[name] = true
		}
	}
}
