package safefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadInFollowsLinksOnlyInsideTheTree(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "out.json")
	os.WriteFile(outside, []byte("out"), 0o600)
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o700)
	os.WriteFile(filepath.Join(root, "a", "real.json"), []byte("in"), 0o600)
	os.Symlink("../real.json", filepath.Join(root, "a", "b", "rel.json"))
	os.Symlink(filepath.Join(root, "a", "real.json"), filepath.Join(root, "abs.json"))
	os.Symlink("b", filepath.Join(root, "a", "c"))
	os.Symlink(outside, filepath.Join(root, "out.json"))
	os.Symlink("../../..", filepath.Join(root, "a", "up"))
	os.Symlink("loop", filepath.Join(root, "loop"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600)
	for _, tc := range []struct {
		path, want, err string
	}{
		{"a/real.json", "in", ""},
		{"a/b/rel.json", "in", ""},
		{"abs.json", "in", ""},
		{"a/c/rel.json", "in", ""},
		{"out.json", "", "outside"},
		{"a/up/etc/passwd", "", "leads out"},
		{"loop", "", "too many symbolic links"},
		{"fifo", "", "is a FIFO, not a regular file"},
		{"missing", "", "no such file"},
	} {
		b, err := ReadIn(root, filepath.Join(root, tc.path), 16, "a test file")
		if tc.err == "" && (err != nil || string(b) != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ReadIn(%s) = %q, %v; want %q, %q", tc.path, b, err, tc.want, tc.err)
		}
	}
	big := filepath.Join(root, "big")
	os.WriteFile(big, make([]byte, 17), 0o600)
	if _, err := ReadIn(root, big, 16, "a test file"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
	if _, err := ReadIn(root, outside, 16, "x"); err == nil {
		t.Error("a path outside the root was read")
	}
}

func TestOwnerAndModeAreChecked(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "open"), []byte("x"), 0o600)
	os.Chmod(filepath.Join(root, "open"), 0o666)
	if _, err := ReadIn(root, filepath.Join(root, "open"), 16, "x"); !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "writable by every user") {
		t.Fatalf("a file every user may write: %v", err)
	}
	os.Mkdir(filepath.Join(root, "d"), 0o777)
	os.Chmod(filepath.Join(root, "d"), 0o777)
	d, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Child("d", false); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a directory every user may write: %v", err)
	}
	// A file of the user's that others may read is made private before
	// it is written.
	os.WriteFile(filepath.Join(root, "log"), nil, 0o644)
	os.Chmod(filepath.Join(root, "log"), 0o644)
	if err := d.AppendLine("log", []byte("secret\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(root, "log")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("log left %v", fi.Mode().Perm())
	}
	if os.Getuid() == 0 {
		os.WriteFile(filepath.Join(root, "theirs"), []byte("x"), 0o644)
		os.Chown(filepath.Join(root, "theirs"), 65534, 65534)
		if _, err := d.ReadFile("theirs", 16, "x"); !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "belongs to uid 65534") {
			t.Fatalf("another user's file: %v", err)
		}
	}
}

func TestFreshMovesAsideWhatWasThere(t *testing.T) {
	parent := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.Symlink(victim, filepath.Join(parent, "launch"))
	d, err := Open(parent, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	l, err := d.Fresh("launch")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create("settings.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := os.Lstat(victim); !os.IsNotExist(err) {
		t.Fatalf("written through the link: %v", err)
	}
	if names, _ := os.ReadDir(parent); len(names) != 1 {
		t.Fatalf("left in the parent: %v", names)
	}
	if err := d.Create(filepath.Join("launch", "settings.json"), nil); err == nil {
		t.Fatal("Create wrote over an existing file")
	}
}

func TestRemoveStaleTempsKeepsFreshOnes(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "..state.json"+TempPrefix+"old")
	fresh := filepath.Join(dir, "..state.json"+TempPrefix+"new")
	for _, p := range []string{old, fresh, filepath.Join(dir, ".state.json")} {
		os.WriteFile(p, nil, 0o600)
	}
	then := time.Now().Add(-time.Hour)
	os.Chtimes(old, then, then)
	d, _ := Open(dir, "")
	defer d.Close()
	if n := d.RemoveStaleTemps(time.Minute, time.Now()); n != 1 {
		t.Fatalf("removed %d", n)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("the stale temporary file is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("a writer's fresh temporary file was removed")
	}
}

// Attack: a hard link planted where superclaude appends — the event log,
// its own log — to another of the user's files (~/.bashrc): O_NOFOLLOW
// does not see a hard link, and the owner and mode are the user's own, so
// every event was appended to that file. A file opened for writing that
// has other names is refused; the callers move it aside and start anew.
func TestAttackHardLinkPlantedWhereAFileIsAppendedIsNotWrittenThrough(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "bashrc")
	os.WriteFile(victim, []byte("keep\n"), 0o600)
	d, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Mkdir("sessions"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(root, "sessions", ".events.jsonl")); err != nil {
		t.Fatal(err)
	}
	s, err := d.Child("sessions", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.AppendLine(".events.jsonl", []byte("{\"event\":1}\n"))
	if !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "hard link") {
		t.Errorf("appending to a file with another name: %v; want it refused, saying why", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the file that shares the name was written: %q", b)
	}
}

// A sticky directory every user may write to — /tmp on every Linux and
// macOS — is passed through: refusing it refused a --settings file, a
// project and the notifications' config below /tmp, and failed the suite
// on every machine whose TMPDIR is a 1777 /tmp. A plain 0777 directory is
// still refused, and a file every user may write inside a sticky one too.
func TestStickyTmpIsPassedThroughButAnOpenDirectoryIsNot(t *testing.T) {
	root := t.TempDir()
	sticky := filepath.Join(root, "tmp")
	os.Mkdir(sticky, 0o700)
	if err := os.Chmod(sticky, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(sticky, "proj"), 0o700)
	os.WriteFile(filepath.Join(sticky, "proj", "settings.json"), []byte("{}"), 0o600)
	if b, err := ReadIn("/", filepath.Join(sticky, "proj", "settings.json"), 16, "x"); err != nil || string(b) != "{}" {
		t.Fatalf("a file below a sticky 1777 directory: %q, %v", b, err)
	}
	os.WriteFile(filepath.Join(sticky, "open.json"), []byte("{}"), 0o600)
	os.Chmod(filepath.Join(sticky, "open.json"), 0o666)
	if _, err := ReadIn("/", filepath.Join(sticky, "open.json"), 16, "x"); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a file every user may write, in a sticky directory: %v", err)
	}
	if err := os.Chmod(sticky, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIn("/", filepath.Join(sticky, "proj", "settings.json"), 16, "x"); !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "writable by every user") {
		t.Fatalf("a file below a 0777 directory without the sticky bit: %v", err)
	}
}

// Attack of issue 21's second hostile pass: a config.toml left 0664 in a
// group shared with another user let that user set `notify = ["sh",
// "-c", …]` and run commands as its owner. A file or directory its group
// may write to is refused, unless the group is the owner's private group
// (OpenSSH's rule), which a umask of 002 gives every file on most Linux
// systems.
func TestAttackAGroupWritableFileOfASharedGroupIsRefused(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "config.toml")
	os.WriteFile(file, []byte("x"), 0o600)
	os.Chmod(file, 0o664)
	os.Mkdir(filepath.Join(root, "d"), 0o700)
	os.Chmod(filepath.Join(root, "d"), 0o775)
	os.WriteFile(filepath.Join(root, "d", "f"), []byte("y"), 0o600)
	uid, gid := os.Getuid(), os.Getgid()
	me := "me" + strconv.Itoa(uid)
	accounts := func(passwd, group string) {
		t.Helper()
		dir := t.TempDir()
		passwdFile, groupFile = filepath.Join(dir, "passwd"), filepath.Join(dir, "group")
		os.WriteFile(passwdFile, []byte(passwd), 0o600)
		os.WriteFile(groupFile, []byte(group), 0o600)
		privateGroups.Clear()
	}
	t.Cleanup(func() { passwdFile, groupFile = "/etc/passwd", "/etc/group"; privateGroups.Clear() })
	mine := fmt.Sprintf("%s:x:%d:%d::/home/me:/bin/sh\n", me, uid, gid)
	for _, tc := range []struct {
		name, passwd, group string
		private             bool
	}{
		{"a private group", mine, fmt.Sprintf("mine:x:%d:\n", gid), true},
		{"a private group naming its owner", mine, fmt.Sprintf("mine:x:%d:%s\n", gid, me), true},
		{"a group another user is a member of", mine, fmt.Sprintf("team:x:%d:%s,alice\n", gid, me), false},
		{"another user's primary group too", mine + fmt.Sprintf("alice:x:%d:%d::/home/alice:/bin/sh\n", uid+1000, gid), fmt.Sprintf("team:x:%d:\n", gid), false},
		{"a group the files do not list", mine, "", false},
	} {
		accounts(tc.passwd, tc.group)
		_, ferr := ReadIn(root, file, 16, "a config file")
		_, derr := ReadIn(root, filepath.Join(root, "d", "f"), 16, "a config file")
		for what, err := range map[string]error{"file": ferr, "directory": derr} {
			switch {
			case tc.private && err != nil:
				t.Errorf("%s: a group-writable %s was refused: %v", tc.name, what, err)
			case !tc.private && (!errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "writable by its group")):
				t.Errorf("%s: a group-writable %s: %v, want it refused as writable by its group", tc.name, what, err)
			}
		}
	}
}
