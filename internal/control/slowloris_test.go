package control

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Attack: a slowloris — a process of the user's (a tool the agent runs,
// with the socket's path in its environment) holding every one of the
// MaxConns slots with connections that never finish their request, and
// opening a new one as each is timed out — made the supervisor answer
// "busy" to everything else: status-line ticks, hooks, +session restart.
// A request that comes whole and at once must still be answered, while
// the slots are held and held again.
func TestAttackSlowlorisHoldingEverySlotLetsATickThrough(t *testing.T) {
	dir, err := os.MkdirTemp("", "sc-slow-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s.sock")
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, ln, func(_ context.Context, req Request, _ Peer) Response {
		return Response{OK: true, Data: []byte(`"` + req.Op + `"`)}
	})
	// The slowloris: every slot, each with a request begun and never
	// ended, topped up as the server drops them.
	stop := make(chan struct{})
	defer close(stop)
	held := make(chan net.Conn, 4*MaxConns)
	hold := func() {
		c, err := net.Dial("unix", sock)
		if err != nil {
			return
		}
		c.Write([]byte(`{"op":"sta`))
		held <- c
	}
	for range MaxConns {
		hold()
	}
	go func() {
		for {
			select {
			case <-stop:
				for len(held) > 0 {
					(<-held).Close()
				}
				return
			case c := <-held:
				// Still held? Then keep it; else a new one takes its slot.
				c.SetReadDeadline(time.Now().Add(time.Millisecond))
				var b [1]byte
				if _, err := c.Read(b[:]); err != nil && !isTimeout(err) {
					c.Close()
					hold()
					continue
				}
				held <- c
				time.Sleep(time.Millisecond)
			}
		}
	}()
	// And the bytes: eight requests of almost 1 MiB each, never ended,
	// holding almost every byte the server buffers (twice what it read).
	big := append([]byte(`{"op":"statusline","payload":"`), bytes.Repeat([]byte("x"), 1<<20-100)...)
	for range MaxBuffered / (2 << 20) {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		c.SetWriteDeadline(time.Now().Add(time.Second))
		c.Write(big)
		held <- c
	}
	time.Sleep(100 * time.Millisecond)
	me, _ := proc.Self()
	for i := range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		tick := append([]byte(`{"x":"`), bytes.Repeat([]byte("y"), 64<<10)...)
		resp, err := roundTrip(ctx, sock, me, Request{Op: OpStatusLine, Payload: append(tick, `"}`...)})
		cancel()
		if err != nil || !resp.OK {
			t.Fatalf("tick %d, with every slot held by a slowloris: %+v, %v", i, resp, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
