// Package logfile owns superclaude's log file, superclaude.log in the state
// directory: every superclaude process appends to it — supervisors for
// hours, status lines and hooks a line at a time — so it is opened the
// safe way (internal/safefs: never through a link, never blocking on a
// FIFO, only the user's own regular file, 0600), and rotated, so that it
// does not grow for ever: past MaxSize it becomes superclaude.log.1 and a
// new one starts.
package logfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/safefs"
)

// Name is the log file's name in the state directory.
const Name = "superclaude.log"

// MaxSize is the size past which the log is rotated: the log keeps the
// last 8 to 16 MiB of what happened. A variable for tests.
var MaxSize int64 = 8 << 20

// checkEvery is how many bytes one process writes between two looks at
// the log's size (one fstat).
var checkEvery int64 = 64 << 10

// File is the log, open for appending. Its Write rotates the log when it
// has grown past MaxSize, and follows another process's rotation.
type File struct {
	mu      sync.Mutex
	dir     *safefs.Dir
	f       *os.File
	ino     uint64
	written int64
}

// Open opens (creating it, and the directory, 0700) the log in dir. A
// link, a FIFO, a device, another user's file or one open to everyone
// where the log goes is moved aside as superclaude.log.unsafe-<time>,
// never followed nor written to, and a new log starts with a line that
// says why; when even that fails, the error says why and the caller runs
// without a log.
func Open(dir string) (*File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	d, err := safefs.Open(dir, "")
	if err != nil {
		return nil, err
	}
	l := &File{dir: d}
	note := ""
	err = l.open()
	if errors.Is(err, safefs.ErrUnsafe) {
		aside := Name + ".unsafe-" + time.Now().UTC().Format("20060102T150405.000000000Z")
		if rerr := d.Rename(Name, aside); rerr != nil {
			d.Close()
			return nil, errors.Join(err, rerr)
		}
		note = fmt.Sprintf("%s %s: %v; moved aside as %s, and a new log started\n",
			time.Now().Format(time.RFC3339), "superclaude", err, aside)
		err = l.open()
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	if note != "" {
		l.f.WriteString(note)
	}
	l.rotate()
	return l, nil
}

// Path is the log's path.
func (l *File) Path() string { return l.dir.Join(Name) }

// open opens the log anew, creating it.
func (l *File) open() error {
	f, _, err := l.dir.OpenFile(Name, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT, 0o600)
	if err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		f.Close()
		return err
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f, l.ino, l.written = f, uint64(st.Ino), 0
	return nil
}

// Write appends p, in one write(2) on an O_APPEND descriptor, so that the
// lines of concurrent processes never interleave.
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.f.Write(p)
	l.written += int64(n)
	if l.written >= checkEvery {
		l.rotate()
	}
	return n, err
}

// rotate looks at the log: when another process has rotated it, the new
// one is opened; when it is past MaxSize, it is renamed to .1 (replacing
// the one before) under a lock on the log itself, so that two processes
// never both rotate, and a new one is opened.
func (l *File) rotate() {
	l.written = 0
	var cur unix.Stat_t
	if err := unix.Fstatat(l.dir.Fd(), Name, &cur, unix.AT_SYMLINK_NOFOLLOW); err != nil || uint64(cur.Ino) != l.ino {
		l.open() // rotated (or removed) by another process: follow it
		return
	}
	if cur.Size < MaxSize {
		return
	}
	old := int(l.f.Fd())
	if unix.Flock(old, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // another process rotates it now
	}
	if unix.Fstatat(l.dir.Fd(), Name, &cur, unix.AT_SYMLINK_NOFOLLOW) == nil && uint64(cur.Ino) == l.ino && cur.Size >= MaxSize &&
		l.dir.Rename(Name, Name+".1") == nil && l.open() == nil {
		return // open closed the old descriptor, and its lock with it
	}
	unix.Flock(old, unix.LOCK_UN)
}

// Close closes the log.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.f.Close()
	l.dir.Close()
	return err
}

// DefaultPath is where the log of the state directory dir is.
func DefaultPath(dir string) string { return filepath.Join(dir, Name) }
