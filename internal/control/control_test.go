package control

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

func TestMain(m *testing.M) {
	reexec.Main(m, reexec.Roles{
		"flood": func(string) {
			if err := floodHelper(); err != nil {
				os.Stdout.WriteString("FAIL: " + err.Error() + "\n")
				os.Exit(1)
			}
			os.Stdout.WriteString("ok\n")
		},
		// Calls the socket named by the argument and prints the result.
		"ping": func(sock string) {
			_, err := roundTrip(context.Background(), sock, proc.Identity{}, Request{Op: OpPing})
			if err != nil {
				os.Stdout.WriteString("error: " + err.Error())
				os.Exit(1)
			}
			os.Stdout.WriteString("ok")
		},
	})
}

func serve(t *testing.T, h Handler) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sc-ctl-") // t.TempDir can exceed the socket path limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	serveAt(t, path, h)
	return path
}

// serveAt serves h on a socket at path until the test ends.
func serveAt(t *testing.T, path string, h Handler) {
	t.Helper()
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, ln, h); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

func TestCallReachesOnlyTheExpectedSupervisor(t *testing.T) {
	calls := 0
	path := serve(t, func(ctx context.Context, req Request, peer Peer) Response {
		calls++
		if peer.PID != os.Getpid() || peer.UID != os.Getuid() {
			return Response{Error: "wrong peer"}
		}
		return Response{OK: true, Data: []byte(`"` + req.Op + `"`)}
	})
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v", fi.Mode().Perm())
	}
	me, _ := proc.Self()
	resp, err := roundTrip(context.Background(), path, me, Request{Op: OpRestart})
	if err != nil || !resp.OK || string(resp.Data) != `"restart"` {
		t.Fatalf("Call = %+v, %v", resp, err)
	}

	// A caller whose environment names another supervisor (another pid,
	// or this pid with another start time) does not send its request.
	for _, wrong := range []proc.Identity{{PID: me.PID + 1, Start: me.Start}, {PID: me.PID, Start: me.Start + 1}} {
		_, err := roundTrip(context.Background(), path, wrong, Request{Op: OpRestart})
		if !errors.Is(err, ErrWrongServer) {
			t.Fatalf("Call to the wrong supervisor: %v", err)
		}
	}
	if calls != 1 {
		t.Fatalf("handler called %d times, want 1", calls)
	}
}

func TestOtherUsersAreRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	path := serve(t, func(context.Context, Request, Peer) Response { return Response{OK: true} })
	// Open the way in the file system so that only the peer check stands.
	os.Chmod(filepath.Dir(path), 0o755)
	os.Chmod(path, 0o666)
	// The go test binary lives in a 0700 build directory; give the other
	// user a copy it may run.
	binDir, _ := os.MkdirTemp("", "sc-ctl-bin-")
	t.Cleanup(func() { os.RemoveAll(binDir) })
	os.Chmod(binDir, 0o755)
	bin := filepath.Join(binDir, "control.test")
	if b, err := os.ReadFile(os.Args[0]); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatal("copying the test binary", err)
	}
	cmd := reexec.Command("ping", path, nil)
	cmd.Path, cmd.Args[0] = bin, bin
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "permission denied") {
		t.Fatalf("another user's call: %v %q", err, out)
	}
}

func TestRuntimeDirIsPrivate(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", base)
	dir, err := RuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	os.Chmod(dir, 0o755)
	if _, err := RuntimeDir(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("loose mode not tightened: %v", fi.Mode().Perm())
	}
	p, err := SocketPath(123)
	if err != nil || len(p) > MaxSocketPath || filepath.Dir(p) != dir {
		t.Fatalf("SocketPath = %q, %v", p, err)
	}
	if os.Getuid() == 0 {
		// Another user's directory is never used (nor refused: see
		// TestAttackForeignRuntimeDirDoesNotBlockStart).
		os.Chown(dir, 65534, 65534)
		if other, err := RuntimeDir(); err != nil || other == dir {
			t.Fatalf("with %s owned by another user, RuntimeDir = %q, %v", dir, other, err)
		}
	}
}

func TestSocketPathFallsBackWhenTooLong(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 90))
	os.MkdirAll(long, 0o700)
	t.Setenv("XDG_RUNTIME_DIR", long)
	p, err := SocketPath(4242)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) > MaxSocketPath || !strings.HasPrefix(p, "/tmp/") {
		t.Fatalf("SocketPath = %q", p)
	}
	if _, err := Listen(filepath.Join(long, "x.sock")); err == nil {
		t.Fatal("Listen accepted an over-long path")
	}
}
