package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// Regression: opening connections until the process runs out of file
// descriptors made accept fail; Serve returned the error, suture counted
// five failures in a microsecond, and the tree stopped, killing the user's
// claude. Serve must back off and keep serving. The flood runs in a helper
// process, whose descriptor limit it lowers.
func TestAttackConnectionFloodToTheFDLimitDoesNotStopServe(t *testing.T) {
	cmd := reexec.Command("flood", "", nil)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("flood helper: %v\n%s", err, out)
	}
}

// openFDs counts this process's open descriptors.
func openFDs() int {
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		if names, err := os.ReadDir(dir); err == nil {
			return len(names)
		}
	}
	return 64
}

// floodHelper serves a socket, lowers its descriptor limit, connects to
// itself until accept fails for want of descriptors, then lets them go and
// checks that a call is answered.
func floodHelper() error {
	dir, err := os.MkdirTemp("", "sc-flood-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "s.sock")
	ln, err := Listen(path)
	if err != nil {
		return err
	}
	acceptFailed := make(chan error, 1)
	testHookAcceptError = func(err error) {
		select {
		case acceptFailed <- err:
		default:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, ln, func(context.Context, Request, Peer) Response { return Response{OK: true} })
	}()

	var old syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old)
	low := old
	low.Cur = uint64(openFDs() + 24)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		return err
	}
	var conns []net.Conn
	var why error
	for why == nil {
		c, err := net.Dial("unix", path)
		if err == nil {
			conns = append(conns, c)
		}
		select {
		case err := <-served:
			why = fmt.Errorf("Serve returned during the flood: %v", err)
		case err := <-acceptFailed:
			why = err
		default:
			if len(conns) > 10000 {
				return errors.New("no accept error after 10000 connections")
			}
			if err != nil {
				// Out of descriptors on the client side: wait for
				// the server's side to fail, or to have returned.
				select {
				case err := <-served:
					why = fmt.Errorf("Serve returned during the flood: %v", err)
				case err := <-acceptFailed:
					why = err
				case <-time.After(20 * time.Second):
					return errors.New("no accept error within 20 s")
				}
			}
		}
	}
	if strings.HasPrefix(why.Error(), "Serve returned") {
		return why
	}
	for _, c := range conns {
		c.Close()
	}
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	me, _ := proc.Self()
	deadline := time.Now().Add(20 * time.Second)
	for {
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := roundTrip(cctx, path, me, Request{Op: OpPing})
		ccancel()
		if err == nil {
			break
		}
		select {
		case serr := <-served:
			return fmt.Errorf("Serve returned after the flood (accept failed with %v): %v", why, serr)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer after the flood (accept failed with %v): %v", why, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

func TestAcceptBackoffDoublesUpToASecond(t *testing.T) {
	for _, tc := range []struct{ prev, want time.Duration }{
		{0, 5 * time.Millisecond},
		{5 * time.Millisecond, 10 * time.Millisecond},
		{300 * time.Millisecond, 600 * time.Millisecond},
		{600 * time.Millisecond, time.Second},
		{time.Second, time.Second},
	} {
		if got := acceptBackoff(tc.prev); got != tc.want {
			t.Errorf("acceptBackoff(%v) = %v, want %v", tc.prev, got, tc.want)
		}
	}
}

// A client that connects and says nothing holds its connection only until
// the request timeout; one that sends an endless line is cut off at the
// limit instead of being buffered.
func TestSlowAndEndlessClientsAreBounded(t *testing.T) {
	defer requestTimeout.Store(int64(RequestTimeout))
	requestTimeout.Store(int64(200 * time.Millisecond))
	var calls atomic.Int32
	path := serve(t, func(context.Context, Request, Peer) Response { calls.Add(1); return Response{OK: true} })

	silent, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	silent.SetReadDeadline(time.Now().Add(20 * time.Second))
	if n, err := silent.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a silent client's connection: read %d, %v; want it closed by the server", n, err)
	}

	// Only the size limit can end this one within the test.
	requestTimeout.Store(int64(time.Hour))
	endless, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer endless.Close()
	endless.SetDeadline(time.Now().Add(20 * time.Second))
	chunk := []byte(strings.Repeat("x", 64<<10))
	sent := 0
	var werr error
	for sent <= 2*MaxRequest && werr == nil {
		var n int
		n, werr = endless.Write(chunk)
		sent += n
	}
	if werr == nil {
		t.Fatalf("the server took %d bytes of one request line", sent)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("handler called %d times", n)
	}
}
