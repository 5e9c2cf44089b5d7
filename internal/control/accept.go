package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/superclaude/superclaude/internal/guard"
)

// Bounds on what one connection may take. A client has RequestTimeout to
// send its request line, of at most MaxRequest bytes, and the answer has
// ResponseTimeout to be written; then the connection is closed. So a slow
// or silent client holds one goroutine and one descriptor for seconds, not
// for ever, and cannot make the server buffer without end.
const (
	RequestTimeout  = 5 * time.Second
	ResponseTimeout = 30 * time.Second
	// MaxRequest carries the largest status-line payload superclaude
	// reads from claude (4 MiB) and the request around it.
	MaxRequest = 4<<20 + 64<<10
	// MaxConns and MaxBuffered bound what all connections together may
	// hold (100 clients sending 4 MiB each used to take a supervisor to
	// 975 MB). When every slot is taken, or the bytes buffered for
	// requests would pass MaxBuffered, the connection that has been
	// sending its request the longest is dropped to make room: a client
	// that sends its request at once — a status line, a hook, +session
	// restart — is always served, and one that holds its connection open
	// without finishing its request (a slowloris, which held all 64 slots
	// and had every tick answered "busy") loses it. Only when every slot
	// is answering a request already is a new one answered "busy" at
	// once; a status line or a hook tries again at its next tick.
	MaxConns    = 64
	MaxBuffered = 16 << 20
)

// budget is what one Serve's connections hold together: how many there
// are, and the bytes of their requests; and the connections still
// sending their request, oldest first, which are dropped to make room
// for newer ones.
type budget struct {
	bytes atomic.Int64

	mu      sync.Mutex
	conns   int
	reading []*slot
}

// slot is one connection's place in the budget.
type slot struct {
	conn *net.UnixConn
	// held is what its request holds of the bytes; dropped says its read
	// was ended to make room.
	held    atomic.Int64
	dropped bool
}

// admit takes a slot for conn: a free one, or — when all MaxConns are
// taken — one more for as long as the oldest connection still sending
// its request takes to let go of its own, which is dropped. Dropped
// connections end at once, so the count stays under twice MaxConns. It
// returns nil when every slot is answering a request.
func (b *budget) admit(conn *net.UnixConn) *slot {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conns >= MaxConns && (b.conns >= 2*MaxConns || !b.dropOldest(nil, false)) {
		return nil
	}
	b.conns++
	sl := &slot{conn: conn}
	b.reading = append(b.reading, sl)
	return sl
}

// dropOldest ends the read of the oldest connection still sending its
// request that is older than self (any, when self is nil) and not
// dropped already — with bytes held, when withBytes — and reports
// whether there was one. b.mu is held.
func (b *budget) dropOldest(self *slot, withBytes bool) bool {
	for _, sl := range b.reading {
		if sl == self {
			return false
		}
		if sl.dropped || withBytes && sl.held.Load() == 0 {
			continue
		}
		sl.dropped = true
		sl.conn.SetReadDeadline(time.Now())
		return true
	}
	return false
}

// read says that sl's request has been read: it is no longer dropped for
// a newer one.
func (b *budget) read(sl *slot) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reading = slices.DeleteFunc(b.reading, func(x *slot) bool { return x == sl })
}

// release gives sl's place back.
func (b *budget) release(sl *slot) {
	b.bytes.Add(-sl.held.Swap(0))
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reading = slices.DeleteFunc(b.reading, func(x *slot) bool { return x == sl })
	b.conns--
}

// room takes n more bytes for sl's request, dropping older connections
// still sending theirs while there is not enough, and waiting a moment for
// them to let go. false: there is no room, and sl holds the oldest request.
func (b *budget) room(sl *slot, n int64) bool {
	for wait := time.Millisecond; ; wait *= 2 {
		if b.bytes.Add(n) <= MaxBuffered {
			sl.held.Add(n)
			return true
		}
		b.bytes.Add(-n)
		if wait > 128*time.Millisecond {
			return false
		}
		b.mu.Lock()
		dropped := b.dropOldest(sl, true)
		b.mu.Unlock()
		if !dropped && wait > time.Millisecond {
			// Nothing older to drop, and what was dropped is gone.
			return false
		}
		time.Sleep(wait)
	}
}

// errBusy refuses a request for which the budget has no room.
var errBusy = errors.New("busy: too many requests at once")

// Accept backoff: after a failed accept Serve waits, doubling from the
// first delay up to the last while accept keeps failing.
const (
	minAcceptBackoff = 5 * time.Millisecond
	maxAcceptBackoff = time.Second
)

// acceptBackoff returns the wait after an accept failure that followed a
// wait of prev (0 after a success).
func acceptBackoff(prev time.Duration) time.Duration {
	if prev <= 0 {
		return minAcceptBackoff
	}
	return min(2*prev, maxAcceptBackoff)
}

// testHookAcceptError, when set by a test, sees every accept error.
var testHookAcceptError func(error)

// requestTimeout is RequestTimeout in nanoseconds; tests change it.
var requestTimeout atomic.Int64

func init() { requestTimeout.Store(int64(RequestTimeout)) }

// Serve answers connections on ln until ctx ends, refusing peers of other
// users. It closes ln when it returns.
//
// A failed accept never ends it: every accept error but a closed listener
// is treated as temporary (out of descriptors, EMFILE, is the one a flood
// of connections causes; it passes as the connections held close), and
// Serve waits a little and goes on, the wait doubling up to a second
// while failures continue. It returns only when ctx ends (ctx.Err()) or
// the listener was closed under it (net.ErrClosed).
func Serve(ctx context.Context, ln *net.UnixListener, h Handler) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	defer ln.Close()
	var delay time.Duration
	b := &budget{}
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			if testHookAcceptError != nil {
				testHookAcceptError(err)
			}
			delay = acceptBackoff(delay)
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			continue
		}
		delay = 0
		sl := b.admit(conn)
		if sl == nil {
			conn.SetDeadline(time.Now().Add(time.Second))
			writeResponse(conn, Response{Error: errBusy.Error()})
			conn.Close()
			continue
		}
		guard.Go(func() {
			defer b.release(sl)
			serveConn(ctx, conn, h, b, sl)
		})
	}
}

func serveConn(ctx context.Context, conn *net.UnixConn, h Handler, b *budget, sl *slot) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Duration(requestTimeout.Load())))
	peer, err := peerOf(conn)
	if err != nil || peer.UID != os.Getuid() {
		writeResponse(conn, Response{Error: "permission denied"})
		return
	}
	defer func() { b.bytes.Add(-sl.held.Swap(0)) }()
	line, err := readLine(bufio.NewReader(conn), MaxRequest, func(n int) bool {
		// Twice the line: its bytes, and the request decoded from them.
		return b.room(sl, 2*int64(n))
	})
	b.read(sl)
	b.mu.Lock()
	dropped := sl.dropped
	b.mu.Unlock()
	if dropped {
		// Its read was ended to make room: what came of it is cut.
		writeResponse(conn, Response{Error: errBusy.Error()})
		return
	}
	if err != nil {
		switch {
		case errors.Is(err, errTooLong):
			writeResponse(conn, Response{Error: "bad request: longer than the limit"})
		case errors.Is(err, errBusy):
			writeResponse(conn, Response{Error: err.Error()})
		}
		return
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		writeResponse(conn, Response{Error: "bad request: " + err.Error()})
		return
	}
	resp := h(ctx, req, peer)
	conn.SetDeadline(time.Now().Add(ResponseTimeout))
	writeResponse(conn, resp)
}

var errTooLong = errors.New("request line too long")

// readLine reads one line of at most max bytes, asking room for each
// piece before it keeps it (errBusy when there is none). A last line
// without its newline counts, as before; nothing at all is an error.
func readLine(r *bufio.Reader, max int, room func(n int) bool) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, errTooLong
		}
		if !room(len(chunk)) {
			return nil, errBusy
		}
		line = append(line, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && len(line) == 0:
			return nil, err
		}
		return line, nil
	}
}

func writeResponse(conn net.Conn, resp Response) {
	b, _ := json.Marshal(resp)
	conn.Write(append(b, '\n'))
}
