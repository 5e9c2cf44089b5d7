package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
)

// A fleet's record is a small file, <state dir>/fleets/<name>.json, that
// +up writes once the fleet is up and +down marks down once it is down. It
// says where the fleet runs: its tmux server's socket and process, and its
// file. It is how `+down NAME` (no file, no --tmux-socket) finds a fleet
// that runs on a server of its own (`socket = "work"` in its file): the
// name alone does not say which server, and asking only the default one
// answered "the fleet is not up" while it ran elsewhere. Kept once the
// fleet is down, it is also how `+down NAME` tells a fleet that is simply
// down (nothing to stop: no error) from a name that never was a fleet's.
//
// The record is a hint, never trusted alone: the server it names must hold
// a tmux session of that name carrying the fleet's mark (see owner), as
// with any other way of naming the server.

// Record is what a fleet's record holds.
type Record struct {
	Name string `json:"name"`
	// File is the fleet file's absolute path.
	File string `json:"file"`
	// Socket is the tmux server's socket path, as tmux reports it.
	Socket string `json:"socket"`
	// Up is when +up last brought the fleet up; Down when +down last
	// brought it down (zero while it is up).
	Up   time.Time `json:"up"`
	Down time.Time `json:"down,omitzero"`
	// Server is the tmux server's process: a supervisor's sweep spares
	// it and everything below it (Servers) while the fleet is up. Zero
	// when it could not be learned.
	Server proc.Identity `json:"server,omitzero"`
}

// maxRecord bounds what is read of a record: one is a few hundred bytes.
const maxRecord = 64 << 10

// recordPath is the record of the fleet name in dir, refusing a name that
// could leave dir (fleet names are letters, digits, '-' and '_').
func recordPath(dir, name string) (string, error) {
	if dir == "" {
		return "", errors.New("no fleets directory")
	}
	if !nameRE().MatchString(name) {
		return "", fmt.Errorf("fleet name %q: only letters, digits, '-' and '_' (%s)", name, whyPlainNames)
	}
	return filepath.Join(dir, name+".json"), nil
}

// WriteRecord records that the fleet of s is up on server t, in dir
// (created 0700; the record is 0600, written whole through a temporary
// file and a rename, never through a symbolic link).
func WriteRecord(dir string, s *Spec, t tmux.Server) error {
	path, err := recordPath(dir, s.Name)
	if err != nil {
		return err
	}
	sock, err := t.SocketPath(s.Name)
	if err != nil {
		return err
	}
	r := Record{Name: s.Name, File: s.File, Socket: sock, Up: time.Now().UTC()}
	if pid, err := t.ServerPID(s.Name); err == nil {
		r.Server, _ = proc.Of(pid)
	}
	return writeRecord(dir, path, r)
}

// writeRecord writes r at path in dir (see WriteRecord).
func writeRecord(dir, path string, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+r.Name+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path) // a link at path is replaced, not followed
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// ReadRecord reads the record of the fleet name in dir; fs.ErrNotExist
// when there is none.
func ReadRecord(dir, name string) (Record, error) {
	path, err := recordPath(dir, name)
	if err != nil {
		return Record{}, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxRecord {
		return Record{}, fmt.Errorf("fleet record %s: not a regular file of at most %d bytes", path, maxRecord)
	}
	var r Record
	if err := json.NewDecoder(f).Decode(&r); err != nil {
		return Record{}, fmt.Errorf("fleet record %s: %w", path, err)
	}
	if r.Name != name {
		return Record{}, fmt.Errorf("fleet record %s: it names fleet %q", path, r.Name)
	}
	return r, nil
}

// maxServers bounds how many records Servers reads: a person's fleets are
// a handful.
const maxServers = 256

// Servers lists the tmux servers the records in dir name of fleets that
// are up (a down fleet's record is kept: MarkDown), for a
// supervisor's sweep to spare (supervise.Config.Spare): a `+up` run from
// the agent's Bash tool starts the fleet's server there, and the server,
// detaching, becomes the supervisor's child, which the sweep after the
// agent used to end with every pane of the fleet. A record only names a
// process: the sweep spares it only while a process of that very
// identity runs (proc.Subtrees), so a stale record, or one whose PID
// another process took, spares nothing.
func Servers(dir string) []proc.Identity {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []proc.Identity
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if len(out) == maxServers {
			break
		}
		if r, err := ReadRecord(dir, name); err == nil && !r.Server.IsZero() && r.Down.IsZero() {
			out = append(out, r.Server)
		}
	}
	return out
}

// MarkDown records in dir that the fleet name, of the fleet file file
// ("" when not known), is down: its record is kept, with when it went
// down, or written when there was none. It reports nothing: a +down that
// could not mark it down has still brought it down.
func MarkDown(dir, name, file string) {
	path, err := recordPath(dir, name)
	if err != nil {
		return
	}
	r, err := ReadRecord(dir, name)
	if err != nil {
		r = Record{Name: name}
	}
	if r.File == "" {
		r.File = file
	}
	r.Down = time.Now().UTC()
	writeRecord(dir, path, r)
}

// WasFleet reports whether a record in dir says name was brought up as
// a fleet here: one that is not up now is down, not unknown.
func WasFleet(dir, name string) bool {
	_, err := ReadRecord(dir, name)
	return err == nil
}

// UpOnRecordedServer reports whether the fleet name runs on the server its
// record in dir names: a +down that looked on another server (its
// --tmux-socket) did not find it, but it is not down.
func UpOnRecordedServer(dir, name string) bool {
	r, err := ReadRecord(dir, name)
	return err == nil && r.Socket != "" && (tmux.Server{Path: r.Socket}).HasSession(name)
}

// Locate returns the tmux server the fleet name runs on, for a +down given
// the name alone: the first of its record's server and fallback (the
// environment's or tmux's default) that holds a session of that name; when
// none does, fallback, and Down then says the fleet is not up there.
func Locate(dir, name string, fallback tmux.Server) tmux.Server {
	if r, err := ReadRecord(dir, name); err == nil && r.Socket != "" {
		if srv := (tmux.Server{Path: r.Socket}); srv.HasSession(name) {
			return srv
		}
	}
	return fallback
}

// errNotUpOn is ErrNotUp with the server it was looked for on.
func errNotUpOn(name string, t tmux.Server) error {
	where := "tmux's default server"
	switch {
	case t.Path != "":
		where = "the tmux server at " + t.Path
	case t.Name != "":
		where = "the tmux server " + t.Name + " (tmux -L " + t.Name + ")"
	}
	return fmt.Errorf("%w: no tmux session %q on %s (a fleet on another server: name it with --tmux-socket, or give the fleet file)", ErrNotUp, name, where)
}
