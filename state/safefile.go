package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/safefs"
)

// This file is the only place the store touches the file system under its
// root (a test, TestFileAccessGoesThroughTheSafeWalk, holds the rest of
// the package to that), and it does so through internal/safefs, the one
// safe way superclaude opens what someone could have planted.
//
// A sessions directory can come from anywhere: a cloned repository can
// ship sessions/x -> /elsewhere or sessions/.events.jsonl -> ~/.bashrc, a
// neighbour with the same uid can put a FIFO where a state file goes, and
// another user can own a project's sessions/ and fill it with state that
// names this user's supervisor. So every path below the root is reached
// from the root one element at a time, with openat(2) and O_NOFOLLOW on a
// directory descriptor: a symbolic link anywhere below the root is
// refused, never followed; files are opened with O_NONBLOCK and accepted
// only when fstat says they are regular files; what is read is bounded;
// and the root, every directory and every file must be the user's and not
// writable by everyone (safefs's rules).
//
// The root itself is opened as given, links and all: it is the user's
// choice (SUPERCLAUDE_SESSIONS_DIR), and on macOS even /tmp is a link. A
// project's ./sessions that is a link, or another user's, is not taken as
// a root unless named there (config.SessionsDir, and `+session activate
// sessions/X`).

// MaxStateSize bounds a state file. A real one is a few KiB; one over the
// limit is refused by readers and kept aside by writers, never read whole
// (a 50 MB file used to cost every update 3 s and 460 MB), and no write
// makes one.
const MaxStateSize = 1 << 20

// maxSmallFile bounds the index's own files: a session name, or an
// identity.
const maxSmallFile = 4 << 10

// ErrUnsafePath reports something under the sessions root that superclaude
// will not use: a symbolic link, or a FIFO, device, socket or directory
// where a regular file belongs (or the other way round), or a file or
// directory of another user, or one every user may write to.
var ErrUnsafePath = errors.New("unsafe path under the sessions directory")

// ErrTooLarge reports a file under the sessions root over its size limit.
var ErrTooLarge = errors.New("file over its size limit")

func init() {
	safefs.AliasOf(safefs.ErrUnsafe, ErrUnsafePath)
	safefs.AliasOf(safefs.ErrTooLarge, ErrTooLarge)
}

// asStateError turns a problem with a state file into the [*Error] a
// corrupt file gets, so that readers skip it and writers keep it aside.
func asStateError(file string, err error) error {
	var fp *safefs.Problem
	if errors.As(err, &fp) {
		return &Error{File: file, Problem: fp.Text}
	}
	return err
}

// dirRef is an open directory under the sessions root, reached without
// following a link.
type dirRef = safefs.Dir

// fileLock is an exclusive lock on a lock file.
type fileLock = safefs.Lock

// keepAside renames name inside d to name.corrupt-<time>: a file that is
// not what it should be is never overwritten or deleted. A link is moved
// as a link (its target is not touched), a FIFO as a FIFO: either may be
// something the user made on purpose, and either is evidence of what
// happened; neither holds state superclaude could use.
func (s *Store) keepAside(d *dirRef, name string) (string, error) {
	base := name + CorruptSuffix + s.now().UTC().Format("20060102T150405.000000000Z")
	target := base
	for i := 1; ; i++ {
		if _, err := d.Lstat(target); errors.Is(err, fs.ErrNotExist) {
			break
		}
		target = fmt.Sprintf("%s.%d", base, i)
	}
	return d.Join(target), d.Rename(name, target)
}

// tree is a directory trusted as it is given — links in its own path are
// followed — under which nothing is: a sessions root, or the parent of an
// index directory (so that the index directory itself, <root>/.index say,
// is reached without following a link).
type tree struct {
	base string
	// show shortens a path for messages; nil leaves it.
	show func(string) string
}

// makeBase creates the base directory (mode 0700) if missing; a writer
// calls it before its first write.
func (t tree) makeBase() error { return os.MkdirAll(t.base, 0o700) }

// open opens the base directory itself, which must be the user's and not
// writable by everyone.
func (t tree) open() (*dirRef, error) {
	return safefs.OpenShown(t.base, t.show)
}

// openDir opens the directory reached from the base through elems, one
// element at a time, refusing links; create makes missing ones.
func (t tree) openDir(create bool, elems ...string) (*dirRef, error) {
	d, err := t.open()
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		next, err := d.Child(e, create)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// at opens the directory holding path, an absolute path below the base,
// and returns it with path's last element.
func (t tree) at(path string, create bool) (*dirRef, string, error) {
	rel, err := filepath.Rel(t.base, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, "", fmt.Errorf("%s is not inside %s", path, t.base)
	}
	elems := strings.Split(rel, string(filepath.Separator))
	d, err := t.openDir(create, elems[:len(elems)-1]...)
	if err != nil {
		return nil, "", err
	}
	return d, elems[len(elems)-1], nil
}

// The path-taking forms below each walk from the base afresh; path is an
// absolute path below the base.

// readFile reads the regular file at path, at most limit bytes.
func (t tree) readFile(path string, limit int64, what string) ([]byte, error) {
	d, name, err := t.at(path, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(name, limit, what)
}

// writeFileAtomicNoSync replaces dir/base by rename without fsync,
// creating missing directories below the base: for the index, a cache that
// is rebuilt from the state files when lost.
func (t tree) writeFileAtomicNoSync(dir, base string, data []byte) error {
	d, name, err := t.at(filepath.Join(dir, base), true)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteAtomic(name, data, false)
}

// removeFile removes the file at path (a link itself, never its target).
func (t tree) removeFile(path string) error {
	d, name, err := t.at(path, false)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Remove(name)
}

// removeDir removes the session directory name inside root (Store.Remove):
// renamed aside first, so that no reader finds it half removed, then
// removed with everything in it, never following a link.
func (s *Store) removeDir(root *dirRef, name string) error {
	aside := "." + name + ".removed-" + strconv.FormatInt(s.now().UnixNano(), 36)
	if err := root.Rename(name, aside); err != nil {
		return err
	}
	return root.RemoveAll(aside)
}

// exists reports whether anything (a link included, not followed) is at
// path.
func (t tree) exists(path string) bool {
	d, name, err := t.at(path, false)
	if err != nil {
		return false
	}
	defer d.Close()
	_, err = d.Lstat(name)
	return err == nil
}

// lockFile locks the lock file at path, creating it and the directories
// below the base.
func (t tree) lockFile(path string) (*fileLock, error) {
	d, name, err := t.at(path, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Lock(name)
}

// readDirNames lists the directory at path; a missing one is empty.
func (t tree) readDirNames(path string) ([]string, error) {
	d, name, err := t.at(path, false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer d.Close()
	sub, err := d.Child(name, false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer sub.Close()
	return sub.Names()
}

// fileSize returns the size of the regular file at path.
func (t tree) fileSize(path string) (int64, error) {
	f, size, err := t.openRead(path)
	if err != nil {
		return 0, err
	}
	f.Close()
	return size, nil
}

// renameFile renames the file at from to the name to in the same
// directory.
func (t tree) renameFile(from, to string) error {
	d, name, err := t.at(from, false)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Rename(name, filepath.Base(to))
}

// openRead opens the regular file at path for reading.
func (t tree) openRead(path string) (*os.File, int64, error) {
	d, name, err := t.at(path, false)
	if err != nil {
		return nil, 0, err
	}
	defer d.Close()
	return d.OpenFile(name, unix.O_RDONLY, 0)
}

// tree is the store's root, under which nothing is followed.
func (s *Store) tree() tree { return tree{base: s.Root, show: s.rel} }

// tree is the index directory's parent: the directory itself is reached
// without following a link (it is <root>/.index for a private index).
func (x *Index) tree() tree { return tree{base: filepath.Dir(x.Dir)} }

// rootInfo looks at a sessions root itself, which is trusted as given.
func rootInfo(root string) (fs.FileInfo, error) { return os.Stat(root) }

// readRoot lists the root's entries, with their types as the directory
// says (a link is not a directory), in the directory's order: os.ReadDir
// would sort them, and the callers sort what they keep.
func (s *Store) readRoot() ([]fs.DirEntry, error) {
	d, err := os.Open(s.Root)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// AppendFile appends data to the file at path (creating it, mode 0600) as
// whole lines, like the event log: a session's log, which +log appends
// the agent's text to. path must be inside a session directory of this
// root, and is reached without following a link; it must be a regular
// file of the user's. Anything else is refused: the path comes from the
// session's state (its targetFile), which a cloned repository ships, and
// `+log` runs as a Bash command people allow without a second look, so an
// absolute path, a ../ or a link would let a repository append to
// ~/.bashrc. Nor is it ever one of superclaude's own files (OwnFile).
func (s *Store) AppendFile(path string, data []byte) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s: not an absolute path", path)
	}
	path = filepath.Clean(path)
	rel, err := filepath.Rel(s.Root, path)
	if err != nil || !strings.Contains(rel, string(filepath.Separator)) || strings.HasPrefix(rel, "..") ||
		CheckName(strings.SplitN(rel, string(filepath.Separator), 2)[0]) != nil {
		return fmt.Errorf("%s is outside the session's directory, and superclaude appends only inside it", path)
	}
	if OwnFile(path) {
		return errOwnFile(path)
	}
	d, name, err := s.tree().at(path, false)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.AppendLine(name, data)
}

// staleTempAge is how old a temporary file of a write must be before
// RemoveStaleTemps takes it for one a killed writer left: a write takes
// milliseconds.
const staleTempAge = time.Minute

// RemoveStaleTemps removes from the named session's directory the
// temporary files of writes whose writer was killed between its create and
// its rename (..state.json.tmp-…, .DEHYDRATED_CONTEXT.md.tmp-…): nothing
// else ever removes them, and a status line killed by claude mid-write
// leaves one each time. It returns how many it removed. The supervisor
// calls it for its agent's session at start and after every exit.
func (s *Store) RemoveStaleTemps(name string) int {
	if CheckName(name) != nil {
		return 0
	}
	d, err := s.tree().openDir(false, name)
	if err != nil {
		return 0
	}
	defer d.Close()
	return d.RemoveStaleTemps(staleTempAge, time.Now()) // file times are the real clock's
}

// WriteFile replaces the file at path, inside the sessions root, with data
// (mode 0600): through a new file beside it and a rename, fsynced, so that
// a reader sees the old content or the new. The path is reached without
// following a link; a link or FIFO in the file's own place is replaced by
// the rename, never written through. For the files superclaude writes into
// a session directory besides the state (the dehydrated context).
func (s *Store) WriteFile(path string, data []byte) error {
	d, name, err := s.tree().at(filepath.Clean(path), false)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteAtomic(name, data, true)
}
