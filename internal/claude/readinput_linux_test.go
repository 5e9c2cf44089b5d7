package claude

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withDeadline sets InputDeadline for one test.
func withDeadline(t *testing.T, d time.Duration) {
	t.Helper()
	old := InputDeadline
	InputDeadline = d
	t.Cleanup(func() { InputDeadline = old })
}

// A callback's stdin is claude's pipe: it is read in the caller's
// goroutine (issue 22: the reader goroutine and its timer cost a tick a
// tenth of its time, and in a package initialiser, where the main
// goroutine is bound to its thread, a hand-over between threads on top).
// A pipe never closed is given up at the deadline and leaves nothing
// running behind: the old reader's goroutine stayed blocked in read.
func TestStdinPipeNeverClosedIsGivenUpAtTheDeadlineInTheCallersGoroutine(t *testing.T) {
	withDeadline(t, 100*time.Millisecond)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.WriteString(`{"session_id":"x"`)
	before := runtime.NumGoroutine()
	start := time.Now()
	data, over, late, err := ReadInput(r, 1<<20)
	took := time.Since(start)
	if !late || over || data != nil || err != nil {
		t.Fatalf("got %q over %v late %v err %v; want late, nothing returned", data, over, late, err)
	}
	if took < 100*time.Millisecond || took > 5*time.Second {
		t.Fatalf("gave up after %s; want the deadline, 100 ms", took)
	}
	time.Sleep(10 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("%d goroutines after the read, %d before: the read goes on in the background", after, before)
	}
}

// What claude writes is read whole, in pieces as it comes; past the limit
// the rest is drained, so that claude's write does not fail, and not
// kept. A descriptor left non-blocking is read as well.
func TestStdinPipeIsReadWholeAndDrainedPastTheLimit(t *testing.T) {
	withDeadline(t, 10*time.Second)
	for _, nonblocking := range []bool{false, true} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		if nonblocking {
			rc, _ := r.SyscallConn()
			rc.Control(func(fd uintptr) { syscall.SetNonblock(int(fd), true) })
		}
		const limit = 100 << 10
		payload := bytes.Repeat([]byte("0123456789"), (3*limit)/10)
		wrote := make(chan error, 1)
		go func() {
			_, err := w.Write(payload[:10])
			time.Sleep(20 * time.Millisecond)
			if err == nil {
				_, err = w.Write(payload[10:])
			}
			w.Close()
			wrote <- err
		}()
		data, over, late, err := ReadInput(r, limit)
		if werr := <-wrote; werr != nil {
			t.Fatalf("nonblocking %v: claude's write failed: %v", nonblocking, werr)
		}
		if !over || late || err != nil || !bytes.Equal(data, payload[:limit]) {
			t.Fatalf("nonblocking %v: %d bytes, over %v, late %v, err %v; want the first %d and over", nonblocking, len(data), over, late, err, limit)
		}
		r.Close()

		r, w, _ = os.Pipe()
		go func() { w.WriteString(strings.Repeat("y", 5000)); w.Close() }()
		data, over, late, err = ReadInput(r, limit)
		if len(data) != 5000 || over || late || err != nil {
			t.Fatalf("a small input: %d bytes, over %v, late %v, err %v", len(data), over, late, err)
		}
		r.Close()
	}
}
