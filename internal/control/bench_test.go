package control

import (
	"context"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// holdOpen keeps n connections to path open until stop closes: each
// holder connects, sends nothing, and connects again as soon as the
// server hangs up (after its request timeout) — a flood of idle clients.
func holdOpen(b *testing.B, path string, n int) (stop func()) {
	b.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	ready := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			for {
				c, err := net.Dial("unix", path)
				if err != nil {
					select {
					case <-done:
						return
					case <-time.After(10 * time.Millisecond):
						continue
					}
				}
				if first {
					ready <- struct{}{}
					first = false
				}
				closed := make(chan struct{})
				go func() { io.Copy(io.Discard, c); close(closed) }()
				select {
				case <-done:
					c.Close()
					return
				case <-closed:
					c.Close()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		<-ready
	}
	return func() { close(done); wg.Wait() }
}

// BenchmarkStatusLineTickUnderFlood times one status-line tick (a round trip
// with claude's status-line JSON, answered by a no-op handler standing in
// for the binder) while held connections are open on the socket, and
// reports the median and the 99th percentile. The goal: ≤ 50 ms p99 with
// 1,000 held open.
func BenchmarkStatusLineTickUnderFlood(b *testing.B) {
	payload, err := os.ReadFile("../claude/testdata/statusline-after-turn-175k.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, held := range []int{0, 1000} {
		b.Run("held="+strconv.Itoa(held), func(b *testing.B) {
			dir, _ := os.MkdirTemp("", "sc-bench-")
			defer os.RemoveAll(dir)
			ln, err := Listen(dir + "/s.sock")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() {
				served <- Serve(ctx, ln, func(context.Context, Request, Peer) Response {
					return Response{OK: true, Data: []byte(`{"session":"s"}`)}
				})
			}()
			stop := holdOpen(b, dir+"/s.sock", held)
			me, _ := proc.Self()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
				_, err := roundTrip(cctx, dir+"/s.sock", me, Request{Op: OpStatusLine, Payload: payload})
				ccancel()
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			stop()
			cancel()
			if err := <-served; err != context.Canceled {
				b.Fatalf("Serve ended with %v", err)
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
