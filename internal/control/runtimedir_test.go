package control

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// freshRuntimeBase makes a temporary directory the only base of runtime
// directories for the test (TMPDIR, XDG_RUNTIME_DIR unset), as for another
// process that starts, and returns it. Short: a socket's path must fit.
func freshRuntimeBase(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("", "sc-rt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	forgetFallbacks()
	return tmp
}

// Regression: with XDG_RUNTIME_DIR unset, a local user who pre-created
// /tmp/superclaude-<uid> for another uid (or put a link or a file there)
// made that user's superclaude refuse to start. It must fall back to a
// private directory of its own, and other processes of the user (+down,
// hooks from another shell) must still find the supervisor's socket.
func TestAttackForeignRuntimeDirDoesNotBlockStart(t *testing.T) {
	type plant func(t *testing.T, path string)
	cases := map[string]plant{
		"symlink": func(t *testing.T, path string) { os.Symlink(t.TempDir(), path) },
		"file":    func(t *testing.T, path string) { os.WriteFile(path, nil, 0o600) },
	}
	if os.Getuid() == 0 {
		cases["other user's dir"] = func(t *testing.T, path string) {
			os.Mkdir(path, 0o777)
			os.Chown(path, 65534, 65534)
		}
	}
	for name, planted := range cases {
		t.Run(name, func(t *testing.T) {
			tmp := freshRuntimeBase(t)
			hijacked := filepath.Join(tmp, "superclaude-"+strconv.Itoa(os.Getuid()))
			planted(t, hijacked)

			dir, err := RuntimeDir()
			if err != nil {
				t.Fatalf("RuntimeDir with %s planted: %v", name, err)
			}
			if dir == hijacked {
				t.Fatalf("RuntimeDir chose the planted %s", hijacked)
			}
			fi, err := os.Lstat(dir)
			st, _ := fi.Sys().(*syscall.Stat_t)
			if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 || int(st.Uid) != os.Getuid() {
				t.Fatalf("fallback %s is not a private directory: %v %v", dir, fi.Mode(), err)
			}
			if again, _ := RuntimeDir(); again != dir {
				t.Fatalf("a second RuntimeDir in the same process chose %s, then %s", dir, again)
			}

			// The supervisor listens there; another process finds it.
			sock, err := SocketPath(os.Getpid())
			if err != nil || filepath.Dir(sock) != dir {
				t.Fatalf("SocketPath = %q, %v", sock, err)
			}
			serveAt(t, sock, func(context.Context, Request, Peer) Response { return Response{OK: true} })

			forgetFallbacks() // as another process would start
			found, err := FindSocket(os.Getpid())
			if err != nil || found != sock {
				t.Fatalf("FindSocket = %q, %v; want %q", found, err, sock)
			}
			me, _ := proc.Self()
			if _, err := roundTrip(context.Background(), found, me, Request{Op: OpPing}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestFindSocketIgnoresSocketsInOthersDirs(t *testing.T) {
	tmp, _ := os.MkdirTemp("", "sc-rt-")
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	// A look-alike fallback directory with loose permissions: anyone
	// could have put a socket there.
	loose := filepath.Join(tmp, "superclaude-"+strconv.Itoa(os.Getuid())+"-x")
	os.Mkdir(loose, 0o700)
	os.Chmod(loose, 0o777)
	ln, err := Listen(filepath.Join(loose, "4242.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if p, err := FindSocket(4242); err == nil {
		t.Fatalf("FindSocket found %s in a directory open to everyone", p)
	}
}

// Regression: each process that had to fall back made a fallback
// directory of its own, so every run with /tmp/superclaude-<uid> squatted
// left one more empty directory behind. A later process reuses a private
// fallback of the user's; a loose look-alike is never reused.
func TestAFallbackRuntimeDirIsReusedByTheNextProcess(t *testing.T) {
	tmp := freshRuntimeBase(t)
	os.WriteFile(filepath.Join(tmp, "superclaude-"+strconv.Itoa(os.Getuid())), nil, 0o600) // squatted
	loose := filepath.Join(tmp, "superclaude-"+strconv.Itoa(os.Getuid())+"-0")
	os.Mkdir(loose, 0o700)
	os.Chmod(loose, 0o777)

	forgetFallbacks()
	first, err := RuntimeDir()
	if err != nil || first == loose {
		t.Fatalf("RuntimeDir = %q, %v", first, err)
	}
	forgetFallbacks() // as the next process starts
	if again, err := RuntimeDir(); err != nil || again != first {
		t.Errorf("the next process chose %q (%v), want the fallback %q again", again, err, first)
	}
	if made, _ := filepath.Glob(filepath.Join(tmp, "superclaude-*-*")); len(made) != 2 {
		t.Errorf("fallback directories: %v, want the loose one and one of ours", made)
	}
}

// SocketDir makes a private directory for another program's sockets, and
// moves it under /tmp when the runtime directory is too deep for a socket
// name of the room asked for (macOS's $TMPDIR is).
func TestSocketDirIsPrivateAndShortEnough(t *testing.T) {
	for _, deep := range []bool{false, true} {
		tmp, err := os.MkdirTemp("", "sc-sd-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(tmp) })
		base := tmp
		if deep {
			base = filepath.Join(tmp, "a-directory-as-deep-as-the-one-macos-gives-each-user-for-its-temporary-files")
			os.Mkdir(base, 0o700)
		}
		t.Setenv("XDG_RUNTIME_DIR", "")
		t.Setenv("TMPDIR", base)
		forgetFallbacks()
		dir, err := SocketDir("ssh", 57)
		if err != nil {
			t.Fatal(err)
		}
		if len(dir)+1+57 > MaxSocketPath {
			t.Errorf("deep=%v: %s leaves no room for a 57-byte socket name", deep, dir)
		}
		if deep == strings.HasPrefix(dir, base) {
			t.Errorf("deep=%v: SocketDir chose %s (TMPDIR %s)", deep, dir, base)
		}
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Fatalf("deep=%v: %s is not a private directory: %v", deep, dir, err)
		}
	}
}

// Attack (issue 21, row 8, left by its first pass): a runtime directory
// of the user's left open to every user (0777) was tightened in place and
// used, with whatever another user had planted in it meanwhile — a link
// at <pid>.launch or <pid>.sock, a socket of theirs. A directory others
// could write to is stepped away from instead: a fresh private one is
// used, the planted things are neither followed nor touched, and why is
// said (SteppedAside, which the supervisor logs).
func TestAttackLooseRuntimeDirIsSteppedAside(t *testing.T) {
	tmp := freshRuntimeBase(t)
	loose := filepath.Join(tmp, "superclaude-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(loose, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(loose, 0o777)
	victim := filepath.Join(tmp, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	planted := filepath.Join(loose, strconv.Itoa(os.Getpid())+".launch")
	os.Symlink(tmp, planted)

	dir, err := RuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	if dir == loose {
		t.Fatalf("RuntimeDir used %s, which every user could write to", loose)
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the runtime directory %s is not private: %v", dir, err)
	}
	if fi, _ := os.Lstat(loose); fi.Mode().Perm() != 0o777 {
		t.Errorf("the loose directory was changed to %v; it is stepped away from, not used", fi.Mode().Perm())
	}
	why := strings.Join(SteppedAside(), "\n")
	if !strings.Contains(why, loose) || !strings.Contains(why, "every user") {
		t.Errorf("SteppedAside = %q; want the loose directory named and why", why)
	}
	for _, d := range RuntimeDirs() {
		if d == loose {
			t.Errorf("RuntimeDirs lists %s, where anyone could have put a socket", loose)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the planted link's target was written: %q", b)
	}
}
