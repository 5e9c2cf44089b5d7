package control

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// The runtime directory holds a supervisor's control socket and its
// launch directory. It is the first of these that is a private directory
// (a real directory, owned by this user, mode 0700):
//
//  1. $XDG_RUNTIME_DIR/superclaude, when XDG_RUNTIME_DIR is set;
//  2. $TMPDIR/superclaude-<uid> (/tmp when TMPDIR is unset);
//  3. a directory $TMPDIR/superclaude-<uid>-<random>: the first private
//     one an earlier process made, else a fresh one (mkdtemp).
//
// The third is for when the second is taken: anyone can create
// /tmp/superclaude-<uid> for another uid, or put a link or a file there,
// and that used to stop that user's superclaude from starting. A
// candidate of the user's own that others may write to (left 0777) is
// stepped away from too, not tightened and used: whatever another user
// planted in it while it was open — a link where the launch directory or
// the socket will be, a socket of theirs — would still be there. Why a
// candidate was passed over is kept for the log ([SteppedAside]). Other
// processes of the user (+down, a hook run from another shell) find a
// supervisor's socket with [FindSocket], which looks in every candidate,
// the random ones included, and trusts only private directories; the
// supervisor's identity is verified by [Client] in any case.

// uidText is this user's uid as it appears in directory names.
func uidText() string { return strconv.Itoa(os.Getuid()) }

// preferredDirs lists candidates 1 (with xdg) and 2 for base ($TMPDIR, or
// /tmp when a socket path must be short).
func preferredDirs(base string, xdg bool) []string {
	var out []string
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" && xdg {
		if fi, err := os.Stat(x); err == nil && fi.IsDir() {
			out = append(out, filepath.Join(x, "superclaude"))
		}
	}
	return append(out, filepath.Join(base, "superclaude-"+uidText()))
}

var (
	fallbackMu sync.Mutex
	// fallbacks maps a base directory to the private directory made
	// under it, so that one process uses one (its socket and its launch
	// directory side by side).
	fallbacks = map[string]string{}
	// aside says, once each, why a candidate was passed over.
	aside []string
)

// SteppedAside says why this process passed over a runtime directory it
// would have used — another user's, one open to every user, something
// planted where its socket goes — each reason once, for the supervisor's
// log: a person who finds superclaude's files in an unexpected place can
// read there why.
func SteppedAside() []string {
	fallbackMu.Lock()
	defer fallbackMu.Unlock()
	return append([]string(nil), aside...)
}

// noteAside records why, unless it is already recorded. fallbackMu is
// held.
func noteAside(why string) {
	for _, w := range aside {
		if w == why {
			return
		}
	}
	aside = append(aside, why)
}

// forgetFallbacks makes the next RuntimeDir choose afresh, as a new
// process would (for tests).
func forgetFallbacks() {
	fallbackMu.Lock()
	fallbacks = map[string]string{}
	fallbackMu.Unlock()
}

// RuntimeDir returns (creating it) this process's runtime directory: the
// first private candidate of the list above, under $TMPDIR — or, when not
// even a fresh directory can be made there ($TMPDIR unwritable, or not a
// directory at all), the same under /tmp, /var/tmp and /dev/shm in turn:
// a broken $TMPDIR used to stop claude from starting at all. It fails only
// when none of them will do.
func RuntimeDir() (string, error) {
	var errs []error
	for i, base := range runtimeBases() {
		d, err := runtimeDirUnder(base, i == 0)
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// runtimeBases are the directories a runtime directory is made in, in the
// order they are tried: $TMPDIR first.
func runtimeBases() []string {
	out := []string{os.TempDir()}
	for _, b := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		if b != out[0] {
			out = append(out, b)
		}
	}
	return out
}

func runtimeDirUnder(base string, xdg bool) (string, error) {
	var errs []error
	for _, dir := range preferredDirs(base, xdg) {
		d, err := candidateDir(dir)
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	fallbackMu.Lock()
	defer fallbackMu.Unlock()
	d, err := fallbackUnder(base)
	if err != nil {
		return "", errors.Join(append(errs, fmt.Errorf("private fallback: %w", err))...)
	}
	for _, err := range errs {
		noteAside(err.Error() + "; superclaude uses " + d + " instead")
	}
	return d, nil
}

// fallbackUnder returns the private fallback directory under base: the
// one this process chose already, else one an earlier process made, else
// a fresh one. fallbackMu is held.
func fallbackUnder(base string) (string, error) {
	if d, ok := fallbacks[base]; ok {
		if _, err := checkPrivate(d); err == nil {
			return d, nil
		}
	}
	// A fallback an earlier process made is ours to reuse: a new one per
	// run would leave one more empty directory behind each time.
	if old, _ := filepath.Glob(filepath.Join(base, "superclaude-"+uidText()+"-*")); len(old) > 0 {
		for _, d := range old { // sorted
			if _, err := checkPrivate(d); err == nil {
				fallbacks[base] = d
				return d, nil
			}
		}
	}
	d, err := os.MkdirTemp(base, "superclaude-"+uidText()+"-")
	if err == nil {
		d, err = privateDir(d)
	}
	if err != nil {
		return "", err
	}
	fallbacks[base] = d
	return d, nil
}

// candidateDir is privateDir for a runtime directory in a directory
// every user may write to (/tmp): one of the user's own that others may
// write to is refused rather than tightened, since what they planted in
// it while it was open would stay. One only others may read or search is
// tightened: nothing can have been put in it.
func candidateDir(dir string) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	fi, err := checkOwned(dir)
	if err != nil {
		return "", err
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return "", fmt.Errorf("runtime directory %s is writable by every user or its group (mode %04o), so anything in it could have been planted there", dir, uint32(perm))
	}
	return privateDir(dir)
}

// privateDir makes dir (mode 0700) unless it exists, and returns it when
// it is a private directory, tightening a loose mode of one this user
// owns: for a directory made inside a private one, where no other user
// can have put anything, and for candidateDir's directories once they are
// known to hold nothing planted.
func privateDir(dir string) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	fi, err := checkOwned(dir)
	if err != nil {
		return "", err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("runtime directory %s: %w", dir, err)
		}
	}
	return dir, nil
}

// checkOwned returns dir's information when it is a directory (not a
// link to one) owned by this user.
func checkOwned(dir string) (fs.FileInfo, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return nil, fmt.Errorf("runtime directory %s is not a directory owned by uid %d", dir, os.Getuid())
	}
	return fi, nil
}

// checkPrivate is checkOwned that also wants no access for anyone else: a
// reader trusts nothing in a directory others could have written to.
func checkPrivate(dir string) (fs.FileInfo, error) {
	fi, err := checkOwned(dir)
	if err == nil && fi.Mode().Perm()&0o077 != 0 {
		err = fmt.Errorf("runtime directory %s is open to other users (mode %v)", dir, fi.Mode().Perm())
	}
	return fi, err
}

// SocketPath returns the path a supervisor with the given PID listens on,
// in its runtime directory; when that path is too long for a socket
// (macOS's $TMPDIR can make it so), the same choice is made under /tmp.
func SocketPath(pid int) (string, error) {
	name := strconv.Itoa(pid) + ".sock"
	dir, err := RuntimeDir()
	if err != nil {
		return "", err
	}
	if p := filepath.Join(dir, name); len(p) <= MaxSocketPath {
		return p, nil
	}
	dir, err = runtimeDirUnder("/tmp", false)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// ListenPID listens on the control socket of the supervisor with the
// given PID: SocketPath, or — when something else is there (a link a
// neighbour planted, a file) or the runtime directory will not do — a
// socket of the same name in a fresh private directory under the same
// base, which [FindSocket] looks in too. What is in the way is neither
// followed nor removed. why says, when it is not empty, why the socket is
// not where it would have been, for the log.
func ListenPID(pid int) (ln *net.UnixListener, path, why string, err error) {
	path, err = SocketPath(pid)
	if err != nil {
		return nil, "", "", err
	}
	ln, err = Listen(path)
	if !errors.Is(err, ErrOccupied) {
		return ln, path, "", err
	}
	name := filepath.Base(path)
	var fresh string
	var ferr error
	for _, base := range []string{os.TempDir(), "/tmp"} {
		if fresh, ferr = os.MkdirTemp(base, "superclaude-"+uidText()+"-"); ferr != nil {
			continue
		}
		if len(filepath.Join(fresh, name)) > MaxSocketPath {
			os.Remove(fresh)
			ferr = fmt.Errorf("%s is too deep for a socket", base)
			continue
		}
		fresh, ferr = privateDir(fresh)
		break
	}
	if ferr != nil {
		return nil, "", "", errors.Join(err, fmt.Errorf("private fallback: %w", ferr))
	}
	path = filepath.Join(fresh, name)
	why = err.Error() + "; the control socket is " + path + " instead, and what is there is left as it is"
	fallbackMu.Lock()
	noteAside(why)
	fallbackMu.Unlock()
	ln, err = Listen(path)
	return ln, path, why, err
}

// RuntimeDirs returns this user's existing private runtime directories,
// in the order a supervisor would have chosen them, the fallbacks of any
// process included. It creates nothing, and leaves out directories that
// are not private.
func RuntimeDirs() []string {
	var dirs []string
	for i, base := range runtimeBases() {
		dirs = append(dirs, preferredDirs(base, i == 0)...)
		more, _ := filepath.Glob(filepath.Join(base, "superclaude-"+uidText()+"-*"))
		dirs = append(dirs, more...)
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if _, err := checkPrivate(d); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// RuntimeEntries returns every existing entry called name in the
// directories of RuntimeDirs.
func RuntimeEntries(name string) []string {
	var out []string
	for _, d := range RuntimeDirs() {
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			out = append(out, filepath.Join(d, name))
		}
	}
	return out
}

// ErrNoSocket reports that no runtime directory holds a supervisor's
// socket.
var ErrNoSocket = errors.New("it takes no requests: it is no running superclaude supervisor (no control socket of its)")

// FindSocket returns the control socket of the supervisor with the given
// PID, for a process other than that supervisor: the first socket of that
// name, owned by this user, in a private runtime directory. Whoever serves
// it is still to be verified ([Client] with the supervisor's identity).
func FindSocket(pid int) (string, error) {
	for _, p := range RuntimeEntries(strconv.Itoa(pid) + ".sock") {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSocket == 0 {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == os.Getuid() {
			return p, nil
		}
	}
	return "", fmt.Errorf("pid %d: %w", pid, ErrNoSocket)
}

// SocketDir returns (creating it) a private directory called name in this
// user's runtime directory, for the sockets of another program — OpenSSH's
// shared connections (internal/remote) — whose names take room more bytes
// below it. When such a path would be too long for a socket (macOS's
// $TMPDIR), the directory is made in the runtime directory under /tmp.
func SocketDir(name string, room int) (string, error) {
	dir, err := RuntimeDir()
	if err == nil && len(filepath.Join(dir, name))+1+room > MaxSocketPath {
		dir, err = runtimeDirUnder("/tmp", false)
	}
	if err != nil {
		return "", err
	}
	return privateDir(filepath.Join(dir, name))
}
