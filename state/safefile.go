package state

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// This file is the only place the store touches the file system under its
// root (a test, TestFileAccessGoesThroughTheSafeWalk, holds the rest of
// the package to that).
//
// A sessions directory can come from anywhere: a cloned repository can
// ship sessions/x -> /elsewhere or sessions/.events.jsonl -> ~/.bashrc, and
// a neighbour with the same uid can put a FIFO where a state file goes.
// So every path below the root is reached from the root one element at a
// time, with openat(2) and O_NOFOLLOW on a directory descriptor: a symbolic
// link anywhere below the root is refused, never followed, and there is no
// window between a check and its use in which a link could be swapped in,
// because nothing is looked up by path twice — each step works on the
// descriptor the step before opened. Files are opened with O_NONBLOCK
// (opening a FIFO never waits for a writer) and accepted only when fstat
// says they are regular files; what is read is bounded.
//
// The root itself is opened as given, links and all: it is the user's
// choice (SUPERCLAUDE_SESSIONS_DIR), and on macOS even /tmp is a link. A
// project's ./sessions that is a link is not taken as a root unless named
// there (config.SessionsDir, and `+session activate sessions/X`).
//
// openat and O_NOFOLLOW behave the same on Linux and macOS, which is why
// this walk is used rather than Linux's openat2(RESOLVE_NO_SYMLINKS).

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
// where a regular file belongs (or the other way round).
var ErrUnsafePath = errors.New("unsafe path under the sessions directory")

// ErrTooLarge reports a file under the sessions root over its size limit.
var ErrTooLarge = errors.New("file over its size limit")

// fileProblem is a file that is there but cannot be used. problem reads
// after the path: "is a FIFO, not a regular file".
type fileProblem struct {
	path    string
	problem string
	err     error // ErrUnsafePath or ErrTooLarge
}

func (e *fileProblem) Error() string   { return e.path + " " + e.problem }
func (e *fileProblem) Is(t error) bool { return t == e.err }

// asStateError turns a problem with a state file into the [*Error] a
// corrupt file gets, so that readers skip it and writers keep it aside.
func asStateError(file string, err error) error {
	var fp *fileProblem
	if errors.As(err, &fp) {
		return &Error{File: file, Problem: fp.problem}
	}
	return err
}

// sizeText renders a limit the way a person reads it: "1 MiB", "4 KiB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func tooLarge(path string, size, limit int64, what string) error {
	return &fileProblem{path: path, err: ErrTooLarge,
		problem: fmt.Sprintf("is %d bytes, over the %s limit for %s", size, sizeText(limit), what)}
}

// kindName names a file type for messages.
func kindName(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "a regular file"
	case unix.S_IFDIR:
		return "a directory"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	}
	return "an unknown kind of file"
}

func wrongKind(path string, mode uint32, want string) error {
	if mode&unix.S_IFMT == unix.S_IFLNK {
		return &fileProblem{path: path, err: ErrUnsafePath,
			problem: "is a symbolic link, and superclaude follows no link under the sessions directory"}
	}
	return &fileProblem{path: path, err: ErrUnsafePath, problem: "is " + kindName(mode) + ", not " + want}
}

// openat is openat(2) with O_CLOEXEC and O_NOCTTY, retried on EINTR (Go's
// preemption signals interrupt system calls).
func openat(dirfd int, name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_CLOEXEC|unix.O_NOCTTY, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// dirRef is an open directory under the sessions root, reached without
// following a link.
type dirRef struct {
	fd   int
	path string // for messages
}

func (d *dirRef) close() {
	if d != nil {
		unix.Close(d.fd)
	}
}

func (d *dirRef) join(name string) string { return filepath.Join(d.path, name) }

// explain turns the error of opening name into one that says what is
// there when it is not what was wanted (ELOOP for a link under
// O_NOFOLLOW, ENOTDIR, ENXIO for a FIFO without a reader …).
func (d *dirRef) explain(op, name string, err error, want string) error {
	var st unix.Stat_t
	if !errors.Is(err, unix.ENOENT) && unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		ft := st.Mode & unix.S_IFMT
		if (want == "a directory" && ft != unix.S_IFDIR) || (want == "a regular file" && ft != unix.S_IFREG) {
			return wrongKind(d.join(name), uint32(st.Mode), want)
		}
	}
	return &fs.PathError{Op: op, Path: d.join(name), Err: err}
}

// child opens the directory name inside d, creating it (mode 0700) when
// create is set and it is missing.
func (d *dirRef) child(name string, create bool) (*dirRef, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW
	fd, err := openat(d.fd, name, flags, 0)
	if errors.Is(err, unix.ENOENT) && create {
		if merr := unix.Mkdirat(d.fd, name, 0o700); merr != nil && !errors.Is(merr, unix.EEXIST) {
			return nil, &fs.PathError{Op: "mkdir", Path: d.join(name), Err: merr}
		}
		fd, err = openat(d.fd, name, flags, 0)
	}
	if err != nil {
		return nil, d.explain("open", name, err, "a directory")
	}
	return &dirRef{fd: fd, path: d.join(name)}, nil
}

// mkdir makes the directory name inside d (mode 0700).
func (d *dirRef) mkdir(name string) error {
	if err := unix.Mkdirat(d.fd, name, 0o700); err != nil {
		return &fs.PathError{Op: "mkdir", Path: d.join(name), Err: err}
	}
	return nil
}

// openFile opens the regular file name inside d. Anything else there — a
// link, a FIFO, a device — is refused with [ErrUnsafePath] and left as it
// is; opening never blocks.
func (d *dirRef) openFile(name string, flags int, perm uint32) (*os.File, int64, error) {
	fd, err := openat(d.fd, name, flags|unix.O_NOFOLLOW|unix.O_NONBLOCK, perm)
	if err != nil {
		return nil, 0, d.explain("open", name, err, "a regular file")
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, 0, &fs.PathError{Op: "fstat", Path: d.join(name), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, 0, wrongKind(d.join(name), uint32(st.Mode), "a regular file")
	}
	// A regular file: blocking I/O from here on, as os.File expects of
	// files.
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, 0, err
	}
	return os.NewFile(uintptr(fd), d.join(name)), st.Size, nil
}

// readFile reads the regular file name inside d, refusing one over limit
// bytes (what names the kind of file, for the message).
func (d *dirRef) readFile(name string, limit int64, what string) ([]byte, error) {
	fd, err := openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, d.explain("open", name, err, "a regular file")
	}
	return readRegular(fd, d, name, limit, what)
}

// readRegular reads fd, opened with O_NONBLOCK, to its end and closes it;
// name inside d names it in errors (joined only for one: a listing reads
// thousands of files, and the joins cost a tenth of it). Anything but a regular file of at most limit
// bytes is refused. It works on the descriptor itself — fstat, read,
// close — with no os.File around it: a listing of 10,000 sessions reads
// 10,000 of these, and os.File's poller bookkeeping cost as much again in
// system calls.
func readRegular(fd int, d *dirRef, name string, limit int64, what string) ([]byte, error) {
	defer unix.Close(fd)
	path := func() string { return d.join(filepath.FromSlash(name)) }
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "fstat", Path: path(), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, wrongKind(path(), uint32(st.Mode), "a regular file")
	}
	if st.Size > limit {
		return nil, tooLarge(path(), st.Size, limit, what)
	}
	// O_NONBLOCK means nothing to a regular file: reads return what is
	// there. One byte more than fstat said shows a file that grew since.
	data := make([]byte, 0, st.Size+1)
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > limit {
				return nil, tooLarge(path(), int64(len(data)), limit, what)
			}
			data = append(data, 0)[:len(data)]
		}
		n, err := unix.Read(fd, data[len(data):cap(data)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path(), Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
		if int64(len(data)) == st.Size && len(data) < cap(data) {
			// All fstat promised, and not the byte more that a file
			// grown since would give: no read of 0 needed to see the end.
			return data, nil
		}
	}
}

// writeAtomic replaces name inside d with data: a new file (mode 0600)
// written beside it, renamed over it. With durable, the file and then the
// directory are fsynced, so that after a crash the old content or the new
// is there, never neither. Rename replaces a link or FIFO at name without
// following it.
func (d *dirRef) writeAtomic(name string, data []byte, durable bool) (err error) {
	var tmp string
	var fd int
	for {
		tmp = "." + name + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		fd, err = openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW, 0o600)
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "create", Path: d.join(tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.join(tmp))
	defer func() {
		if err != nil {
			unix.Unlinkat(d.fd, tmp, 0)
		}
	}()
	if err = unix.Fchmod(fd, 0o600); err != nil { // whatever the umask
		f.Close()
		return err
	}
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if durable {
		if err = f.Sync(); err != nil {
			f.Close()
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = d.rename(tmp, name); err != nil {
		return err
	}
	if durable {
		return d.sync()
	}
	return nil
}

// fileLock is an exclusive flock(2) on a lock file; Unlock closes it.
type fileLock struct{ f *os.File }

// Unlock releases the lock.
func (l *fileLock) Unlock() error { return l.f.Close() }

// lock takes an exclusive lock on the lock file name inside d, creating it
// (mode 0600), and waits for it. A link or anything but a regular file at
// name is refused: no other superclaude can hold a lock on it either, but
// moving it aside would race with another process doing the same.
func (d *dirRef) lock(name string) (*fileLock, error) {
	f, _, err := d.openFile(name, unix.O_RDWR|unix.O_CREAT, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "flock", Path: d.join(name), Err: err}
	}
	return &fileLock{f}, nil
}

// appendLine appends line (ending in a newline) to the regular file name
// inside d, creating it. Lines are whole: when the file does not end in a
// newline — a write cut short, by a full disk say — one is written first,
// so the cut line stays a line of its own (which readers skip) instead of
// gluing onto this one. Two writers repairing at once leave an empty line,
// which readers skip too. line goes out in one write(2) on an O_APPEND
// descriptor, so concurrent writers' lines never interleave.
func (d *dirRef) appendLine(name string, line []byte) error {
	f, size, err := d.openFile(name, unix.O_RDWR|unix.O_APPEND|unix.O_CREAT, 0o600)
	if err != nil {
		return err
	}
	if size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (d *dirRef) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: d.join(name), Err: err}
	}
	return nil
}

// rename moves from to to inside d. Neither is followed if a link.
func (d *dirRef) rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: d.join(from), New: d.join(to), Err: err}
	}
	return nil
}

// lstat reports the type bits (unix.S_IFMT) of name inside d, not
// following a link.
func (d *dirRef) lstat(name string) (uint32, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: d.join(name), Err: err}
	}
	return uint32(st.Mode) & unix.S_IFMT, nil
}

// names lists d's entries.
func (d *dirRef) names() ([]string, error) {
	fd, err := openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Readdirnames(-1)
}

func (d *dirRef) sync() error {
	for {
		err := unix.Fsync(d.fd)
		if err != unix.EINTR {
			return err
		}
	}
}

// keepAside renames name inside d to name.corrupt-<time>: a file that is
// not what it should be is never overwritten or deleted. A link is moved
// as a link (its target is not touched), a FIFO as a FIFO: either may be
// something the user made on purpose, and either is evidence of what
// happened; neither holds state superclaude could use.
func (s *Store) keepAside(d *dirRef, name string) (string, error) {
	base := name + CorruptSuffix + s.now().UTC().Format("20060102T150405.000000000Z")
	target := base
	for i := 1; ; i++ {
		if _, err := d.lstat(target); errors.Is(err, fs.ErrNotExist) {
			break
		}
		target = fmt.Sprintf("%s.%d", base, i)
	}
	return d.join(target), d.rename(name, target)
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

func (t tree) display(p string) string {
	if t.show == nil {
		return p
	}
	return t.show(p)
}

// makeBase creates the base directory (mode 0700) if missing; a writer
// calls it before its first write.
func (t tree) makeBase() error { return os.MkdirAll(t.base, 0o700) }

// open opens the base directory itself.
func (t tree) open() (*dirRef, error) {
	fd, err := openat(unix.AT_FDCWD, t.base, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: t.display(t.base), Err: err}
	}
	return &dirRef{fd: fd, path: t.display(t.base)}, nil
}

// openDir opens the directory reached from the base through elems, one
// element at a time, refusing links; create makes missing ones.
func (t tree) openDir(create bool, elems ...string) (*dirRef, error) {
	d, err := t.open()
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		next, err := d.child(e, create)
		d.close()
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
	defer d.close()
	return d.readFile(name, limit, what)
}

// writeFileAtomicNoSync replaces dir/base by rename without fsync,
// creating missing directories below the base: for the index, a cache that
// is rebuilt from the state files when lost.
func (t tree) writeFileAtomicNoSync(dir, base string, data []byte) error {
	d, name, err := t.at(filepath.Join(dir, base), true)
	if err != nil {
		return err
	}
	defer d.close()
	return d.writeAtomic(name, data, false)
}

// removeFile removes the file at path (a link itself, never its target).
func (t tree) removeFile(path string) error {
	d, name, err := t.at(path, false)
	if err != nil {
		return err
	}
	defer d.close()
	return d.remove(name)
}

// exists reports whether anything (a link included, not followed) is at
// path.
func (t tree) exists(path string) bool {
	d, name, err := t.at(path, false)
	if err != nil {
		return false
	}
	defer d.close()
	_, err = d.lstat(name)
	return err == nil
}

// lockFile locks the lock file at path, creating it and the directories
// below the base.
func (t tree) lockFile(path string) (*fileLock, error) {
	d, name, err := t.at(path, true)
	if err != nil {
		return nil, err
	}
	defer d.close()
	return d.lock(name)
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
	defer d.close()
	sub, err := d.child(name, false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer sub.close()
	return sub.names()
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
	defer d.close()
	return d.rename(name, filepath.Base(to))
}

// openRead opens the regular file at path for reading.
func (t tree) openRead(path string) (*os.File, int64, error) {
	d, name, err := t.at(path, false)
	if err != nil {
		return nil, 0, err
	}
	defer d.close()
	return d.openFile(name, unix.O_RDONLY, 0)
}

// tree is the store's root, under which nothing is followed.
func (s *Store) tree() tree { return tree{base: s.Root, show: s.rel} }

// tree is the index directory's parent: the directory itself is reached
// without following a link (it is <root>/.index for a private index).
func (x *Index) tree() tree { return tree{base: filepath.Dir(x.Dir)} }

// rootInfo looks at a sessions root itself, which is trusted as given.
func rootInfo(root string) (fs.FileInfo, error) { return os.Stat(root) }

// readRoot lists the root's entries, with their types as the directory
// says (a link is not a directory).
func (s *Store) readRoot() ([]fs.DirEntry, error) { return os.ReadDir(s.Root) }

// AppendFile appends data to the file at path (creating it, mode 0600) as
// whole lines, like the event log. A path inside the sessions root — a
// session's log, which +log appends the agent's text to — is reached
// without following a link and must be a regular file; a path elsewhere is
// the user's own file and opened as usual.
func (s *Store) AppendFile(path string, data []byte) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s: not an absolute path", path)
	}
	path = filepath.Clean(path)
	if !strings.HasPrefix(path, s.Root+string(filepath.Separator)) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	d, name, err := s.tree().at(path, false)
	if err != nil {
		return err
	}
	defer d.close()
	return d.appendLine(name, data)
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
	defer d.close()
	return d.writeAtomic(name, data, true)
}
