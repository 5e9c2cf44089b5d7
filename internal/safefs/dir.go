package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Openat is openat(2) with O_CLOEXEC and O_NOCTTY, retried on EINTR (Go's
// preemption signals interrupt system calls).
func Openat(dirfd int, name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_CLOEXEC|unix.O_NOCTTY, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// Dir is an open directory reached without following a link below the
// directory a walk started from. Every directory and file it opens is
// checked for its owner and mode (owner.go).
type Dir struct {
	fd   int
	path string // as opened, joined to its children's names
	// show turns a path below the one opened into how messages name it
	// (nil: as it is); shown is this directory's, worked out once, when a
	// message or a file's name first needs it.
	show  func(string) string
	shown func() string
}

// Open opens the directory at path as given — links in the path itself
// are followed: it is the user's choice ($SUPERCLAUDE_SESSIONS_DIR, the
// state directory), and on macOS even /tmp is a link — and checks its
// owner and mode. show, when not empty, is how messages name it.
func Open(path, show string) (*Dir, error) {
	if show == "" || show == path {
		return OpenShown(path, nil)
	}
	return OpenShown(path, func(p string) string {
		if rest, ok := strings.CutPrefix(p, path); ok && (rest == "" || rest[0] == filepath.Separator) {
			return show + rest
		}
		return p
	})
}

// OpenShown is Open with the name messages give paths below path worked
// out by show, and only when a message needs one: the state store names
// its files relative to the working directory, and finding that
// directory (os.Getwd) cost a status-line tick, which shows no message,
// a twentieth of its time (issue 22).
func OpenShown(path string, show func(string) string) (*Dir, error) {
	d := newDir(-1, path, show)
	fd, err := Openat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.Path(), Err: err}
	}
	if err := checkDir(fd, d.Path); err != nil {
		unix.Close(fd)
		return nil, err
	}
	d.fd = fd
	return d, nil
}

// newDir is the Dir of fd, opened at path.
func newDir(fd int, path string, show func(string) string) *Dir {
	d := &Dir{fd: fd, path: path, show: show}
	if show != nil {
		d.shown = sync.OnceValue(func() string { return show(path) })
	}
	return d
}

// child is the Dir of fd, opened as name inside d.
func (d *Dir) child(fd int, name string) *Dir { return newDir(fd, filepath.Join(d.path, name), d.show) }

// Close closes d; a nil d is fine.
func (d *Dir) Close() {
	if d != nil {
		unix.Close(d.fd)
	}
}

// Path is d's path, as messages name it.
func (d *Dir) Path() string {
	if d.shown == nil {
		return d.path
	}
	return d.shown()
}

// Fd is d's descriptor, for the system calls this package does not wrap.
func (d *Dir) Fd() int { return d.fd }

// Join is the path of name inside d, for messages.
func (d *Dir) Join(name string) string { return filepath.Join(d.Path(), name) }

// Explain turns the error of opening name into one that says what is
// there when it is not what was wanted (ELOOP for a link under
// O_NOFOLLOW, ENOTDIR, ENXIO for a FIFO without a reader …).
func (d *Dir) Explain(op, name string, err error, want string) error {
	var st unix.Stat_t
	if !errors.Is(err, unix.ENOENT) && unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		ft := st.Mode & unix.S_IFMT
		if (want == "a directory" && ft != unix.S_IFDIR) || (want == "a regular file" && ft != unix.S_IFREG) {
			return WrongKind(d.Join(name), uint32(st.Mode), want)
		}
	}
	return &fs.PathError{Op: op, Path: d.Join(name), Err: err}
}

// Child opens the directory name inside d, creating it (mode 0700) when
// create is set and it is missing. A link there is refused, and so is a
// directory of another user or one every user may write to.
func (d *Dir) Child(name string, create bool) (*Dir, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW
	fd, err := Openat(d.fd, name, flags, 0)
	if errors.Is(err, unix.ENOENT) && create {
		if merr := unix.Mkdirat(d.fd, name, 0o700); merr != nil && !errors.Is(merr, unix.EEXIST) {
			return nil, &fs.PathError{Op: "mkdir", Path: d.Join(name), Err: merr}
		}
		fd, err = Openat(d.fd, name, flags, 0)
	}
	if err != nil {
		return nil, d.Explain("open", name, err, "a directory")
	}
	if err := checkDir(fd, func() string { return d.Join(name) }); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return d.child(fd, name), nil
}

// Mkdir makes the directory name inside d (mode 0700).
func (d *Dir) Mkdir(name string) error {
	if err := unix.Mkdirat(d.fd, name, 0o700); err != nil {
		return &fs.PathError{Op: "mkdir", Path: d.Join(name), Err: err}
	}
	return nil
}

// OpenFile opens the regular file name inside d and returns it with its
// size. Anything else there — a link, a FIFO, a device — is refused with
// [ErrUnsafe] and left as it is, and so is a file of another user or one
// every user may write to, and, for writing, a file with other names
// (hard links); opening never blocks. A file opened for
// writing that others may read is made private (0600) first.
func (d *Dir) OpenFile(name string, flags int, perm uint32) (*os.File, int64, error) {
	fd, err := Openat(d.fd, name, flags|unix.O_NOFOLLOW|unix.O_NONBLOCK, perm)
	if err != nil {
		return nil, 0, d.Explain("open", name, err, "a regular file")
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, 0, &fs.PathError{Op: "fstat", Path: d.Join(name), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, 0, WrongKind(d.Join(name), uint32(st.Mode), "a regular file")
	}
	write := flags&(unix.O_WRONLY|unix.O_RDWR) != 0
	if err := checkStat("", &st, write); err != nil {
		unix.Close(fd)
		return nil, 0, checkStat(d.Join(name), &st, write) // named for its message
	}
	if write && st.Nlink > 1 {
		// A hard link, which O_NOFOLLOW does not see: what is written
		// would be written to the file's other names too (~/.bashrc).
		unix.Close(fd)
		return nil, 0, &Problem{Path: d.Join(name), Kind: ErrUnsafe,
			Text: fmt.Sprintf("has %d names (hard links), so what superclaude writes there would change another file too; superclaude does not write it", st.Nlink)}
	}
	if write {
		if err := tighten(fd, &st); err != nil {
			unix.Close(fd)
			return nil, 0, &fs.PathError{Op: "chmod", Path: d.Join(name), Err: err}
		}
	}
	// A regular file: blocking I/O from here on, as os.File expects of
	// files.
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, 0, err
	}
	return os.NewFile(uintptr(fd), d.Join(name)), st.Size, nil
}

// ReadFile reads the regular file name inside d, refusing one over limit
// bytes (what names the kind of file, for the message).
func (d *Dir) ReadFile(name string, limit int64, what string) ([]byte, error) {
	fd, err := Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, d.Explain("open", name, err, "a regular file")
	}
	return readRegular(fd, d, name, limit, what)
}

// readRegular reads fd, opened with O_NONBLOCK, to its end and closes it;
// name inside d names it in errors (joined only for one: a listing reads
// thousands of files, and the joins cost a tenth of it). Anything but a
// regular file of at most limit bytes, of a trusted owner, is
// refused. It works on the descriptor itself — fstat, read, close — with
// no os.File around it: a listing of 10,000 sessions reads 10,000 of
// these, and os.File's poller bookkeeping cost as much again in system
// calls.
func readRegular(fd int, d *Dir, name string, limit int64, what string) ([]byte, error) {
	defer unix.Close(fd)
	path := func() string { return d.Join(filepath.FromSlash(name)) }
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "fstat", Path: path(), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, WrongKind(path(), uint32(st.Mode), "a regular file")
	}
	if !trusted(st.Uid) || st.Mode&0o022 != 0 && openToOthers(&st) != "" {
		return nil, checkStat(path(), &st, false)
	}
	if st.Size > limit {
		return nil, TooLarge(path(), st.Size, limit, what)
	}
	// O_NONBLOCK means nothing to a regular file: reads return what is
	// there. One byte more than fstat said shows a file that grew since.
	data := make([]byte, 0, st.Size+1)
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > limit {
				return nil, TooLarge(path(), int64(len(data)), limit, what)
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

// TempPrefix starts the name of every temporary file WriteAtomic makes
// beside its target: "." + name + TempPrefix + random. A process killed
// between the create and the rename leaves one; [Dir.RemoveStaleTemps]
// removes them.
const TempPrefix = ".tmp-"

// WriteAtomic replaces name inside d with data: a new file (mode 0600)
// written beside it, renamed over it. With durable, the file and then the
// directory are fsynced, so that after a crash the old content or the new
// is there, never neither. Rename replaces a link or FIFO at name without
// following it.
func (d *Dir) WriteAtomic(name string, data []byte, durable bool) (err error) {
	var tmp string
	var fd int
	for {
		tmp = "." + name + TempPrefix + randText()
		fd, err = Openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW, 0o600)
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "create", Path: d.Join(tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.Join(tmp))
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
	if err = d.Rename(tmp, name); err != nil {
		return err
	}
	if durable {
		return d.Sync()
	}
	return nil
}

// Create makes the new file name inside d (mode 0600) with data; there
// must be nothing of that name there, so nothing planted is written
// through.
func (d *Dir) Create(name string, data []byte) error {
	fd, err := Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return d.Explain("create", name, err, "a new file")
	}
	f := os.NewFile(uintptr(fd), d.Join(name))
	if err := unix.Fchmod(fd, 0o600); err != nil {
		f.Close()
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Lock is an exclusive flock(2) on a lock file; Unlock closes it.
type Lock struct{ f *os.File }

// Unlock releases the lock.
func (l *Lock) Unlock() error { return l.f.Close() }

// Lock takes an exclusive lock on the lock file name inside d, creating it
// (mode 0600), and waits for it. A link or anything but a regular file at
// name is refused: no other superclaude can hold a lock on it either, but
// moving it aside would race with another process doing the same.
func (d *Dir) Lock(name string) (*Lock, error) {
	f, _, err := d.OpenFile(name, unix.O_RDWR|unix.O_CREAT, 0o600)
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
		return nil, &fs.PathError{Op: "flock", Path: d.Join(name), Err: err}
	}
	return &Lock{f}, nil
}

// ErrLocked reports a lock another process held for longer than the
// caller would wait.
var ErrLocked = errors.New("held by another process")

// LockWithin is Lock that waits at most max: a holder that never lets go
// — a process stopped with Ctrl-Z as it held the lock, or one that holds
// it on purpose — is waited out, not waited on for ever. After max it
// fails with [ErrLocked].
func (d *Dir) LockWithin(name string, max time.Duration) (*Lock, error) {
	f, _, err := d.OpenFile(name, unix.O_RDWR|unix.O_CREAT, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(max)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return &Lock{f}, nil
		}
		if err != unix.EINTR && err != unix.EWOULDBLOCK {
			f.Close()
			return nil, &fs.PathError{Op: "flock", Path: d.Join(name), Err: err}
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, &fs.PathError{Op: "flock", Path: d.Join(name), Err: ErrLocked}
		}
		time.Sleep(wait)
	}
}

// AppendLine appends line (ending in a newline) to the regular file name
// inside d, creating it. Lines are whole: when the file does not end in a
// newline — a write cut short, by a full disk say — one is written first,
// so the cut line stays a line of its own (which readers skip) instead of
// gluing onto this one. Two writers repairing at once leave an empty line,
// which readers skip too. line goes out in one write(2) on an O_APPEND
// descriptor, so concurrent writers' lines never interleave.
func (d *Dir) AppendLine(name string, line []byte) error {
	f, size, err := d.OpenFile(name, unix.O_RDWR|unix.O_APPEND|unix.O_CREAT, 0o600)
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

// Remove removes name inside d (a link itself, never its target).
func (d *Dir) Remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: d.Join(name), Err: err}
	}
	return nil
}

// Rename moves from to to inside d. Neither is followed if a link.
func (d *Dir) Rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: d.Join(from), New: d.Join(to), Err: err}
	}
	return nil
}

// Lstat reports the type bits (unix.S_IFMT) of name inside d, not
// following a link.
func (d *Dir) Lstat(name string) (uint32, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: d.Join(name), Err: err}
	}
	return uint32(st.Mode) & unix.S_IFMT, nil
}

// Names lists d's entries.
func (d *Dir) Names() ([]string, error) {
	fd, err := Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Readdirnames(-1)
}

// Sync fsyncs d.
func (d *Dir) Sync() error {
	for {
		err := unix.Fsync(d.fd)
		if err != unix.EINTR {
			return err
		}
	}
}
