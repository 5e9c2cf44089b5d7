package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// maxLinks bounds the links ReadIn follows, as the kernel's 40.
const maxLinks = 40

// ReadIn reads the regular file at path, which is inside the directory
// root, at most limit bytes (what names the kind of file in messages).
// root is trusted as given (a link in its own path is followed); below
// it a symbolic link is followed only while it stays inside root — a
// project's .claude/settings.json may be a link to a file kept elsewhere
// in the project, never to /dev/zero or ~/.bashrc. Every directory and
// the file itself are opened without blocking and checked for their owner and mode;
// a FIFO, device or socket is refused.
//
// With root "/" every link is followed, and the other checks still hold:
// for a file the user named (--settings) or keeps in their own
// configuration directory.
func ReadIn(root, path string, limit int64, what string) ([]byte, error) {
	root = filepath.Clean(root)
	rel, err := filepath.Rel(root, filepath.Clean(path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is not inside %s", path, root)
	}
	// Absolute link targets are compared with the root as the kernel
	// resolves it (on macOS /tmp is /private/tmp).
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	base, err := Open(root, "")
	if err != nil {
		return nil, err
	}
	stack := []*Dir{base}
	defer func() {
		for _, d := range stack {
			d.Close()
		}
	}()
	comps := split(rel)
	links := 0
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		cur := stack[len(stack)-1]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) == 1 {
				return nil, &Problem{Path: path, Kind: ErrUnsafe, Text: "leads out of " + root + " through ..; superclaude does not follow it"}
			}
			cur.Close()
			stack = stack[:len(stack)-1]
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(cur.fd, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return nil, &fs.PathError{Op: "lstat", Path: cur.Join(c), Err: err}
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			if links++; links > maxLinks {
				return nil, &Problem{Path: path, Kind: ErrUnsafe, Text: "goes through too many symbolic links"}
			}
			target, err := readlinkat(cur.fd, c)
			if err != nil {
				return nil, &fs.PathError{Op: "readlink", Path: cur.Join(c), Err: err}
			}
			if filepath.IsAbs(target) {
				inside, ok := within(real, target)
				if !ok {
					inside, ok = within(root, target)
				}
				if !ok {
					return nil, &Problem{Path: cur.Join(c), Kind: ErrUnsafe,
						Text: "is a symbolic link to " + target + ", outside " + root + "; superclaude does not follow it"}
				}
				for _, d := range stack[1:] {
					d.Close()
				}
				stack = stack[:1]
				comps = append(split(inside), comps...)
			} else {
				comps = append(split(target), comps...)
			}
			continue
		}
		if len(comps) > 0 {
			next, err := cur.Child(c, false)
			if err != nil {
				return nil, err
			}
			stack = append(stack, next)
			continue
		}
		return cur.ReadFile(c, limit, what)
	}
	return nil, &Problem{Path: path, Kind: ErrUnsafe, Text: "is the directory " + root + " itself, not a file in it"}
}

// within returns target relative to root when it is inside it.
func within(root, target string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(target))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

func split(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

func readlinkat(dirfd int, name string) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(dirfd, name, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return "", err
		}
		if n < len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Fresh makes the directory name inside d anew (mode 0700), whatever was
// there: a stale directory of a process that died, or something planted —
// a link, a file, another user's directory — which is moved aside
// without being followed and then removed as far as it can be. The
// directory returned is empty and the user's, so that the files made in
// it with [Dir.Create] are written nowhere else.
func (d *Dir) Fresh(name string) (*Dir, error) {
	if _, err := d.Lstat(name); err == nil {
		aside := "." + name + ".stale-" + randText()
		if err := d.Rename(name, aside); err != nil {
			return nil, err
		}
		d.RemoveAll(aside)
	}
	if err := d.Mkdir(name); err != nil {
		return nil, err
	}
	return d.Child(name, false)
}

// RemoveAll removes name inside d and, when it is a directory, everything
// in it, never following a link; what cannot be removed (another user's
// files) is left.
func (d *Dir) RemoveAll(name string) error {
	ft, err := d.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if ft != unix.S_IFDIR {
		return d.Remove(name)
	}
	fd, err := Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return d.Explain("open", name, err, "a directory")
	}
	sub := d.child(fd, name)
	names, err := sub.Names()
	for _, n := range names {
		if rerr := sub.RemoveAll(n); err == nil {
			err = rerr
		}
	}
	sub.Close()
	if rerr := unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR); err == nil && rerr != nil {
		err = &fs.PathError{Op: "remove", Path: d.Join(name), Err: rerr}
	}
	return err
}

// RemoveStaleTemps removes the temporary files that a WriteAtomic in d
// killed between its create and its rename left (".NAME.tmp-…"), when
// they are regular files of the user's older than age: a writer that is
// still running finishes in milliseconds. It returns how many it removed.
func (d *Dir) RemoveStaleTemps(age time.Duration, now time.Time) int {
	names, err := d.Names()
	if err != nil {
		return 0
	}
	n := 0
	for _, name := range names {
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, TempPrefix) {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG ||
			int(st.Uid) != euid || now.Sub(time.Unix(st.Mtim.Unix())) < age {
			continue
		}
		if d.Remove(name) == nil {
			n++
		}
	}
	return n
}
