package control

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Issue 21, partial row: 100 connections each sending a 4 MiB request at
// once took a supervisor to 975 MB: every connection could buffer up to
// MaxRequest, with no bound on the sum. The server holds at most
// MaxConns connections and MaxBuffered bytes of requests at a time, and
// refuses the rest at once ("busy"), so its memory stays bounded whatever
// is sent.
func TestManyLargeRequestsAtOnceStayBounded(t *testing.T) {
	dir, err := os.MkdirTemp("", "sc-lim-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ln, err := Listen(filepath.Join(dir, "s.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	go Serve(ctx, ln, func(context.Context, Request, Peer) Response {
		<-release
		return Response{OK: true}
	})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	// 100 clients, each writing a request of almost MaxRequest bytes, not
	// yet ended: the server must buffer, or refuse, all of it at once.
	body := append([]byte(`{"op":"statusline","payload":"`), bytes.Repeat([]byte("x"), MaxRequest-64)...)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("unix", filepath.Join(dir, "s.sock"))
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			c.SetWriteDeadline(time.Now().Add(3 * time.Second))
			c.Write(body)
		}()
	}
	wg.Wait()
	time.Sleep(200 * time.Millisecond)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	close(release)
	for _, c := range conns {
		c.Close()
	}
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if limit := int64(2*MaxBuffered + 16<<20); grew > limit {
		t.Fatalf("the server holds %d MiB for 100 large requests at once, over %d MiB", grew>>20, limit>>20)
	}
	t.Logf("heap grew by %d MiB", grew>>20)
}
