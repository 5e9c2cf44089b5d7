package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
)

// File names inside a session directory.
const (
	StateFile = ".state.json"
	// DehydratedFile holds the working context a fresh agent carries on
	// from after a restart with a fresh context: what the agent saved
	// itself (Claude Code's /superclaude:session dehydrate) or what its
	// profile wrote for it (supervise.Profile.Dehydrate).
	DehydratedFile = "DEHYDRATED_CONTEXT.md"
	lockFile       = ".state.json.lock"
	// CorruptSuffix starts the name a bad state file is moved aside to.
	CorruptSuffix = ".corrupt-"
)

// Store is a sessions root: the directory that holds one directory per
// session and the event log, with the lookup [Index] it shares with other
// roots.
type Store struct {
	// Root is the absolute path of the sessions directory.
	Root string
	// Actor names who writes, in the event log ("session activate",
	// "supervisor", "statusline" …).
	Actor string
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Report receives problems that a lookup or listing stepped over (a
	// corrupt state file it skipped). Nil drops them.
	Report func(error)

	index *Index
	stats *Stats
	held  *heldEvents
}

// Stats counts what a store (and every store of another root reached
// through it) wrote: how often a state file was replaced and how many
// fsyncs that took. Tests and benchmarks read it.
type Stats struct {
	Writes, Syncs atomic.Int64
}

// Open returns the store rooted at root, with a private index inside it
// (<root>/.index). Nothing is created until a session is written: a reader
// never leaves a sessions directory behind, and needs no write access.
func Open(root string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	return OpenIn(abs, filepath.Join(filepath.Clean(abs), indexDir))
}

// OpenIn returns the store rooted at root whose lookups go through the
// index in indexDir, which other roots may share (see [Index]).
func OpenIn(root, indexDir string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	idx, err := filepath.Abs(indexDir)
	if err != nil {
		return nil, err
	}
	return &Store{Root: filepath.Clean(abs), Now: time.Now, index: &Index{Dir: idx}, stats: &Stats{},
		held: &heldEvents{m: map[string][]Event{}}}, nil
}

// OpenExisting is Open for readers that must not create a sessions
// directory as a side effect (the status line and hooks run in any
// project): it fails when root does not exist.
func OpenExisting(root string) (*Store, error) {
	if err := isDir(root); err != nil {
		return nil, err
	}
	return Open(root)
}

// OpenExistingIn is OpenIn for readers: it fails when root does not exist.
func OpenExistingIn(root, indexDir string) (*Store, error) {
	if err := isDir(root); err != nil {
		return nil, err
	}
	return OpenIn(root, indexDir)
}

func isDir(root string) error {
	fi, err := rootInfo(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("sessions directory %s is not a directory", root)
	}
	return nil
}

// Index is the lookup index the store uses.
func (s *Store) Index() *Index { return s.index }

// Stats is what the store has written.
func (s *Store) Stats() *Stats { return s.stats }

// at returns the store of another sessions root, sharing this one's index,
// statistics, clock, actor and reporting.
func (s *Store) at(root string) *Store {
	if root == s.Root {
		return s
	}
	c := *s
	c.Root = root
	return &c
}

// At returns the store of the sessions root that holds the session
// directory dir (as a lookup or `+session activate sessions/X` names it).
func (s *Store) At(dir string) (*Store, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", err
	}
	abs = filepath.Clean(abs)
	name := filepath.Base(abs)
	if err := CheckName(name); err != nil {
		return nil, "", err
	}
	return s.at(filepath.Dir(abs)), name, nil
}

// session loads one session of this root.
func (s *Store) session(name string) (*Session, error) {
	st, err := s.Load(name)
	if err != nil {
		return nil, err
	}
	return &Session{Name: name, Dir: filepath.Join(s.Root, name), State: st, Store: s}, nil
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Dir returns the directory of the named session.
func (s *Store) Dir(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	return filepath.Join(s.Root, name), nil
}

// Path returns the state file of the named session.
func (s *Store) Path(name string) (string, error) {
	dir, err := s.Dir(name)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, StateFile), nil
}

// ErrNoChange, returned by an Update function, means there is nothing to
// write: Update returns the current state and no error, and writes
// nothing.
var ErrNoChange = errors.New("no change")

// ErrNoSession reports that a session has no state file.
var ErrNoSession = errors.New("no such session")

// stateWhat names a state file in size-limit messages.
const stateWhat = "a state file"

// Load reads and validates the named session's state without locking:
// writers replace the file by rename, so a read sees a whole file. A bad
// file — corrupt, over [MaxStateSize], a link, a FIFO — is reported as
// [*Error] and left where it is; a session directory that is a link is
// refused with [ErrUnsafePath].
func (s *Store) Load(name string) (*State, error) {
	if _, err := s.Path(name); err != nil {
		return nil, err
	}
	root, err := s.tree().open()
	if errors.Is(err, fs.ErrNotExist) {
		// No sessions root yet (nothing is created before claude starts):
		// no session of that name either. Callers such as the automatic
		// session's name search rely on this being ErrNoSession.
		return nil, fmt.Errorf("session %s: %w", name, ErrNoSession)
	}
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return s.loadIn(root, name)
}

// loadIn is Load with the root already open (List opens it once).
func (s *Store) loadIn(root *dirRef, name string) (*State, error) {
	path := func() string { return filepath.Join(s.Root, name, StateFile) } // for errors only
	if data, ok, err := root.ReadBeneath(name+"/"+StateFile, MaxStateSize, stateWhat); ok {
		if err != nil {
			return nil, asStateError(s.rel(path()), err)
		}
		st, err := Parse(data, s.now())
		if err != nil {
			return nil, asError(s.rel(path()), err)
		}
		return st, nil
	}
	d, err := root.Child(name, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %s: %w", name, ErrNoSession)
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	data, err := d.ReadFile(StateFile, MaxStateSize, stateWhat)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("session %s: %w", name, ErrNoSession)
		}
		return nil, asStateError(s.rel(path()), err)
	}
	st, err := Parse(data, s.now())
	if err != nil {
		return nil, asError(s.rel(path()), err)
	}
	return st, nil
}

// Exists reports whether the named session has a state file (of any kind:
// a FIFO there is for Update to move aside). Links are not followed.
func (s *Store) Exists(name string) bool {
	path, err := s.Path(name)
	if err != nil {
		return false
	}
	return s.tree().exists(path)
}

// rel shortens path for messages: relative to the working directory when
// the store is below it, absolute otherwise.
func (s *Store) rel(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return path
}

// Update is the only way superclaude writes a state file. Under an
// exclusive lock on the lock file beside it, it reads the file (a session
// without one gets a fresh State whose Exists is false), calls fn, validates
// the result, writes it to a temporary file, fsyncs it, renames it over the
// old file and fsyncs the directory. When fn returns an error nothing is
// written and that error is returned; [ErrNoChange] means nothing needs
// writing.
//
// A file that fails to parse or validate is moved aside, never overwritten:
// Update returns an [*Error] whose KeptAs names the copy, and the caller
// decides whether to start fresh.
//
// reason is recorded in the event log with every transition fn makes.
func (s *Store) Update(name, reason string, fn func(*State) error) (*State, error) {
	dir, err := s.Dir(name)
	if err != nil {
		return nil, err
	}
	// A new session directory changes the root's mtime, which marks the
	// index stale; when the index was fresh just before, the change is
	// ours and indexTouch records it (below, once the entries are in).
	var mtime int64
	created, rootFresh := false, false
	if !s.tree().exists(dir) {
		if err := s.tree().makeBase(); err != nil {
			return nil, fmt.Errorf("sessions directory: %w", err)
		}
	}
	root, err := s.tree().open()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if _, err := root.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		mtime, rootFresh = s.index.rootFresh(s.Root)
		if err := root.Mkdir(name); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("session directory: %w", err)
		}
		created = true
	}
	// Everything below works on this descriptor: a link at the session's
	// name is refused, and one swapped in later is never seen.
	sd, err := root.Child(name, false)
	if err != nil {
		return nil, err
	}
	defer sd.Close()
	lock, err := sd.Lock(lockFile)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	defer lock.Unlock()

	path := filepath.Join(dir, StateFile)
	cur, err := s.readLocked(sd, path)
	if err != nil {
		return nil, err
	}
	before := cur.Clone()
	if err := fn(cur); err != nil {
		if errors.Is(err, ErrNoChange) {
			return before, nil
		}
		return nil, err
	}
	if err := cur.validate(s.now()); err != nil {
		return nil, fmt.Errorf("refusing to write %s: %w", s.rel(path), err)
	}
	data, err := cur.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStateSize {
		return nil, fmt.Errorf("refusing to write %s: the state would be %d bytes, over the %s limit for %s",
			s.rel(path), len(data), safefs.SizeText(MaxStateSize), stateWhat)
	}

	// A write that moves the session's pane or PID holds the index lock
	// from its index entries through the file: a rebuild of the index,
	// which takes the same lock and reads the files, then sees either the
	// old file and no new entries or the new file and its entries, never
	// a half. (Seen with three fleet panes starting at once: a rebuild
	// between a new entry and its file dropped the entry and marked the
	// index fresh, and that pane's session was never found again.)
	if indexChanges(before, cur) || created {
		l, err := s.index.lock()
		if err != nil {
			return nil, err
		}
		defer l.Unlock()
		if created {
			s.index.register(s.Root)
			if rootFresh {
				s.index.touch(s.Root, mtime)
			}
		}
		if err := s.index.add(dir, before, cur); err != nil {
			return nil, err
		}
		if testHookIndexed != nil {
			testHookIndexed()
		}
	}
	if err := sd.WriteAtomic(StateFile, data, true); err != nil {
		return nil, fmt.Errorf("write %s: %w", s.rel(path), err)
	}
	s.stats.Writes.Add(1)
	s.stats.Syncs.Add(2) // the file and its directory
	if indexChanges(before, cur) {
		s.index.removeStale(dir, before, cur)
	}
	s.recordTransitions(name, reason, before, cur)
	cur.exists = true
	return cur.Clone(), nil
}

// testHookIndexed, when set by a test, runs between a write's index entries
// and its file: the window the index lock must close.
var testHookIndexed func()

// readLocked reads the state file in the session directory d for Update.
// A bad file — corrupt, oversized, or not a regular file at all — is moved
// aside, never overwritten.
func (s *Store) readLocked(d *dirRef, path string) (*State, error) {
	data, err := d.ReadFile(StateFile, MaxStateSize, stateWhat)
	if errors.Is(err, fs.ErrNotExist) {
		return &State{}, nil
	}
	var perr error
	switch {
	case errors.Is(err, ErrUnsafePath) || errors.Is(err, ErrTooLarge):
		perr = asStateError(s.rel(path), err)
	case err != nil:
		return nil, err
	default:
		st, err := Parse(data, s.now())
		if err == nil {
			return st, nil
		}
		perr = err
	}
	e := asError(s.rel(path), perr).(*Error)
	kept, err := s.keepAside(d, StateFile)
	if err != nil {
		return nil, fmt.Errorf("%v; moving it aside failed: %w", e, err)
	}
	e.KeptAs = kept
	s.Append(Event{
		Session: filepath.Base(filepath.Dir(path)),
		Kind:    "quarantine",
		Reason:  e.Error(),
	})
	return nil, e
}

// Update runs [Store.Update] on the session directory dir, whose parent is
// the sessions root.
func Update(dir string, fn func(*State) error) (*State, error) {
	s, err := Open(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	s.Actor = "superclaude"
	return s.Update(filepath.Base(dir), "", fn)
}

// Session is one session as a lookup or a listing sees it.
type Session struct {
	// Name is the session directory's name; Dir its absolute path.
	Name string
	Dir  string
	// State is its state when it was read.
	State *State
	// Store is the store of the root that holds it: a lookup can find a
	// session in another root than the store it was asked of, and writes
	// must go to that root.
	Store *Store
}

// Names lists the session directories under the root, sorted.
func (s *Store) Names() ([]string, error) {
	entries, err := s.readRoot()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && CheckName(e.Name()) == nil {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// List loads every session. Directories without a state file are skipped;
// corrupt files are skipped and passed to Report.
func (s *Store) List() ([]Session, error) {
	names, err := s.Names()
	if err != nil {
		return nil, err
	}
	root, err := s.tree().open()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// Loading is system calls and JSON; on more than one processor the
	// sessions are loaded side by side (10,000 of them make a +status),
	// each made whole there: what is left to one processor is little.
	out := make([]Session, len(names))
	errs := make([]error, len(names))
	workers := min(runtime.GOMAXPROCS(0), 8, max(1, len(names)/64))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				st, err := s.loadIn(root, names[i])
				out[i], errs[i] = Session{Name: names[i], Dir: filepath.Join(s.Root, names[i]), State: st, Store: s}, err
			}
		}()
	}
	wg.Wait()
	kept := out[:0]
	for i := range out {
		if errs[i] != nil {
			if !errors.Is(errs[i], ErrNoSession) {
				s.report(errs[i])
			}
			continue
		}
		kept = append(kept, out[i])
	}
	return kept, nil
}

func (s *Store) report(err error) {
	if s.Report != nil {
		s.Report(err)
	}
}
