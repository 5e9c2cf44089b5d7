package state

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"

	"github.com/superclaude/superclaude/internal/proc"
)

// The index lives in <root>/.index: pane/<key> and pid/<pid> each hold the
// name of a session, and built records the root directory's mtime when the
// index was last known to match the files. Writers hold .index/lock; readers
// need no lock because every entry is replaced by rename.
const indexDir = ".index"

const (
	kindPane = "pane"
	kindPID  = "pid"
)

// ErrNotFound reports that no session matches a lookup.
var ErrNotFound = errors.New("no session found")

func (s *Store) indexPath(parts ...string) string {
	return filepath.Join(append([]string{s.Root, indexDir}, parts...)...)
}

func (s *Store) ensureIndexDirs() error {
	for _, k := range []string{kindPane, kindPID} {
		if err := os.MkdirAll(s.indexPath(k), 0o700); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

func (s *Store) lockIndex() (*flock.Flock, error) {
	if err := s.ensureIndexDirs(); err != nil {
		return nil, err
	}
	l := flock.New(s.indexPath("lock"), flock.SetPermissions(0o600))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("lock the session index: %w", err)
	}
	return l, nil
}

func entryName(kind, key string) string {
	if kind == kindPane {
		return base64.RawURLEncoding.EncodeToString([]byte(key))
	}
	return key
}

func (s *Store) indexGet(kind, key string) (string, bool) {
	b, err := os.ReadFile(s.indexPath(kind, entryName(kind, key)))
	if err != nil {
		return "", false
	}
	name := strings.TrimSpace(string(b))
	return name, CheckName(name) == nil
}

func (s *Store) indexSet(kind, key, name string) error {
	return writeFileAtomicNoSync(s.indexPath(kind), entryName(kind, key), []byte(name+"\n"))
}

// indexDel removes an entry if it still names name.
func (s *Store) indexDel(kind, key, name string) {
	if got, ok := s.indexGet(kind, key); ok && got == name {
		os.Remove(s.indexPath(kind, entryName(kind, key)))
	}
}

type builtMarker struct {
	RootMtime int64 `json:"rootMtime"`
}

func (s *Store) rootMtime() (int64, bool) {
	fi, err := os.Stat(s.Root)
	if err != nil {
		return 0, false
	}
	return fi.ModTime().UnixNano(), true
}

// indexFresh reports whether the index matched the files when the root
// directory last changed: a session directory created or removed by anyone
// but this package makes it stale. It returns the root's mtime too.
func (s *Store) indexFresh() (int64, bool) {
	m, ok := s.rootMtime()
	if !ok {
		return 0, false
	}
	b, err := os.ReadFile(s.indexPath("built"))
	if err != nil {
		return m, false
	}
	var mk builtMarker
	if json.Unmarshal(b, &mk) != nil {
		return m, false
	}
	return m, mk.RootMtime == m
}

// indexChanges reports whether a write from before to after moves the
// session's pane or PID, and so must go through the index.
func indexChanges(before, after *State) bool {
	return before.FleetPaneID != after.FleetPaneID || before.PID != after.PID
}

// indexTouch records that the root's new mtime is ours (we just created a
// session directory and are indexing it), provided the index was fresh at
// prev. The caller holds the index lock.
func (s *Store) indexTouch(prev int64) {
	b, err := os.ReadFile(s.indexPath("built"))
	var mk builtMarker
	if err != nil || json.Unmarshal(b, &mk) != nil || mk.RootMtime != prev {
		return
	}
	if m, ok := s.rootMtime(); ok {
		s.writeBuilt(m)
	}
}

func (s *Store) writeBuilt(m int64) {
	b, _ := json.Marshal(builtMarker{RootMtime: m})
	writeFileAtomicNoSync(s.indexPath(), "built", b)
}

// indexAdd points the index at name for the pane and PID that after has
// and before did not. The caller holds the index lock.
func (s *Store) indexAdd(name string, before, after *State) error {
	if after.FleetPaneID != "" && after.FleetPaneID != before.FleetPaneID {
		if err := s.indexSet(kindPane, after.FleetPaneID, name); err != nil {
			return err
		}
	}
	if after.PID > 0 && after.PID != before.PID {
		if err := s.indexSet(kindPID, strconv.Itoa(after.PID), name); err != nil {
			return err
		}
	}
	return nil
}

// indexRemoveStale drops the entries for the pane and PID before had and
// after no longer has. The caller holds the index lock.
func (s *Store) indexRemoveStale(name string, before, after *State) {
	if before.FleetPaneID != "" && before.FleetPaneID != after.FleetPaneID {
		s.indexDel(kindPane, before.FleetPaneID, name)
	}
	if before.PID > 0 && before.PID != after.PID {
		s.indexDel(kindPID, strconv.Itoa(before.PID), name)
	}
}

// Reindex rebuilds the index from the state files. Lookups call it when
// the index is missing or wrong; it scans every session, so it costs time
// in proportion to their number.
func (s *Store) Reindex() error {
	l, err := s.lockIndex()
	if err != nil {
		return err
	}
	defer l.Unlock()
	// The mtime is read before the scan: a directory created during the
	// scan makes the index stale again instead of being missed.
	m, ok := s.rootMtime()
	if !ok {
		return fmt.Errorf("sessions directory %s is gone", s.Root)
	}
	sessions, err := s.List()
	if err != nil {
		return err
	}
	want := map[string]map[string]string{kindPane: {}, kindPID: {}}
	best := map[string]map[string]*State{kindPane: {}, kindPID: {}}
	put := func(kind, key string, sess Session) {
		if cur, ok := best[kind][key]; ok && !preferred(sess.State, cur) {
			return
		}
		best[kind][key] = sess.State
		want[kind][key] = sess.Name
	}
	for _, sess := range sessions {
		if sess.State.FleetPaneID != "" {
			put(kindPane, sess.State.FleetPaneID, sess)
		}
		if sess.State.PID > 0 {
			put(kindPID, strconv.Itoa(sess.State.PID), sess)
		}
	}
	for kind, entries := range want {
		keep := map[string]bool{}
		for key, name := range entries {
			keep[entryName(kind, key)] = true
			if got, ok := s.indexGet(kind, key); ok && got == name {
				continue
			}
			if err := s.indexSet(kind, key, name); err != nil {
				return err
			}
		}
		files, _ := os.ReadDir(s.indexPath(kind))
		for _, f := range files {
			if keep[f.Name()] || strings.HasPrefix(f.Name(), ".") {
				continue
			}
			os.Remove(s.indexPath(kind, f.Name()))
		}
	}
	s.writeBuilt(m)
	return nil
}

// preferred reports whether a should own an index key over b when two
// session files claim the same pane or PID, as seed-era files can: a live
// session over a completed one, then the more recent heartbeat, then the
// later start.
func preferred(a, b *State) bool {
	if (a.Lifecycle == Completed) != (b.Lifecycle == Completed) {
		return b.Lifecycle == Completed
	}
	if !a.LastHeartbeat.Equal(b.LastHeartbeat) {
		return a.LastHeartbeat.After(b.LastHeartbeat)
	}
	return a.StartedAt.After(b.StartedAt)
}

// Owner returns the verified identity of the supervisor that owns st.
func Owner(st *State) proc.Identity {
	return proc.Identity{PID: st.PID, Start: st.PIDStart, Boot: st.PIDBoot}
}

// OwnerAlive reports whether st's owner is running: verified by start time
// when the file records one; seed-era files without it can only be checked
// by PID.
func OwnerAlive(st *State) bool {
	if st.PID <= 0 {
		return false
	}
	if st.PIDStart == 0 {
		return proc.PIDAlive(st.PID)
	}
	return proc.Alive(Owner(st))
}

// lookup resolves one index key. match says whether a loaded state really
// answers the lookup. A hit is checked against its file; a stale hit, or a
// miss while the index is stale, rebuilds the index once and asks again.
func (s *Store) lookup(kind, key string, match func(*State) bool) (*Session, error) {
	for attempt := 0; attempt < 2; attempt++ {
		name, ok := s.indexGet(kind, key)
		if ok {
			st, err := s.Load(name)
			if err == nil && match(st) {
				return &Session{Name: name, Dir: filepath.Join(s.Root, name), State: st}, nil
			}
			if err != nil && !errors.Is(err, ErrNoSession) {
				s.report(err)
			}
		} else if _, fresh := s.indexFresh(); fresh {
			return nil, ErrNotFound
		}
		if attempt == 0 {
			if err := s.Reindex(); err != nil {
				return nil, err
			}
		}
	}
	return nil, ErrNotFound
}

// FindByPane returns the session whose fleetPaneId is pane.
func (s *Store) FindByPane(pane string) (*Session, error) {
	if pane == "" {
		return nil, ErrNotFound
	}
	return s.lookup(kindPane, pane, func(st *State) bool { return st.FleetPaneID == pane })
}

// FindByOwner returns the session whose pid is pid, provided that owner is
// alive (verified by start time when the file records one).
func (s *Store) FindByOwner(pid int) (*Session, error) {
	if pid <= 0 {
		return nil, ErrNotFound
	}
	return s.lookup(kindPID, strconv.Itoa(pid), func(st *State) bool {
		return st.PID == pid && OwnerAlive(st)
	})
}

// Find is seed 000 §2's lookup: the pane's session first, then the live
// supervisor's. Either key may be empty.
func (s *Store) Find(pane string, pid int) (*Session, error) {
	sess, err := s.FindByPane(pane)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return sess, err
	}
	return s.FindByOwner(pid)
}

// writeFileAtomicNoSync replaces dir/base by rename without fsync: for the
// index, a cache that is rebuilt from the state files when lost.
func writeFileAtomicNoSync(dir, base string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, base))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
