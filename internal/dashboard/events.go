package dashboard

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/state"
)

// eventTail keeps, per sessions root, the latest event of each session,
// reading each root's event log only from where it left off: a refresh
// costs what was appended since the last one, not the whole log (up to
// 16 MiB with its rotated half).
type eventTail struct {
	roots map[string]*logTail
}

// logTail is how far one root's log has been read.
type logTail struct {
	// file is the current log as it was when last read, off how far.
	file fs.FileInfo
	off  int64
	// primed is set once the rotated log (.1) has been read.
	primed bool
	// latest is each session's latest event; raw holds its line, which is
	// decoded whole only when it changed (dirty): most lines of a log are
	// superseded by a later one, and decoding only their time and session
	// makes the first reading of a full log several times cheaper.
	latest map[string]*state.Event
	raw    map[string]lineAt
	dirty  map[string]bool
}

// lineAt is an event's line and time.
type lineAt struct {
	line []byte
	time time.Time
}

func newEventTail() *eventTail { return &eventTail{roots: map[string]*logTail{}} }

// last returns the latest event of each session of root. The map is the
// tail's own: callers read it only.
func (t *eventTail) last(root string) (map[string]*state.Event, error) {
	lt := t.roots[root]
	if lt == nil {
		lt = &logTail{latest: map[string]*state.Event{}, raw: map[string]lineAt{}, dirty: map[string]bool{}}
		t.roots[root] = lt
	}
	path := filepath.Join(root, state.EventsFile)
	if !lt.primed {
		lt.primed = true
		if f, fi, err := openLog(path + ".1"); err == nil {
			lt.read(f, 0, fi.Size())
			f.Close()
		}
	}
	f, fi, err := openLog(path)
	if errors.Is(err, fs.ErrNotExist) {
		lt.decode()
		return lt.latest, nil
	}
	if err != nil {
		return lt.latest, fmt.Errorf("event log %s: %w", path, err)
	}
	defer f.Close()
	if lt.file != nil && !os.SameFile(lt.file, fi) {
		// The log was rotated since the last reading: what was appended
		// to the old file after it is now at the end of .1.
		if old, ofi, err := openLog(path + ".1"); err == nil {
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

// decode decodes the lines of the sessions whose latest event changed.
func (lt *logTail) decode() {
	for s := range lt.dirty {
		var ev state.Event
		if json.Unmarshal(lt.raw[s].line, &ev) == nil {
			lt.latest[s] = &ev
		}
		delete(lt.dirty, s)
	}
}

// maxEventLine and maxEventRead bound what a refresh reads, as
// state.Store.Events bounds it: a line longer than maxEventLine is skipped
// (no event is that long; a file written to fill memory may be), and of a
// log that grew by more than maxEventRead only its last maxEventRead bytes
// are read. maxEventRead is a variable for the test.
const maxEventLine = 1 << 20

var maxEventRead int64 = 64 << 20

// read reads the complete lines of f between off and size and returns the
// offset after the last one: a line still being written is read next
// time. Lines that do not parse are skipped, as state.Store.Events does.
func (lt *logTail) read(f *os.File, off, size int64) int64 {
	if size <= off {
		return off
	}
	partial := false
	if size-off > maxEventRead {
		off = size - maxEventRead
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
			// (state.Event's JSON).
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

// openLog opens an event log for reading without following a symbolic link
// and without waiting on a FIFO, and refuses anything but a regular file.
func openLog(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, fi, nil
}
