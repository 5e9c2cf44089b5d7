package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
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
	// hold: a connection past MaxConns, or a request that would take the
	// bytes buffered for requests past MaxBuffered, is answered "busy" at
	// once and closed (100 clients sending 4 MiB each used to take a
	// supervisor to 975 MB). A status line or a hook is one small
	// request, and tries again at its next tick.
	MaxConns    = 64
	MaxBuffered = 16 << 20
)

// budget is what one Serve's connections hold together.
type budget struct {
	conns atomic.Int64
	bytes atomic.Int64
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
		if b.conns.Add(1) > MaxConns {
			b.conns.Add(-1)
			conn.SetDeadline(time.Now().Add(time.Second))
			writeResponse(conn, Response{Error: errBusy.Error()})
			conn.Close()
			continue
		}
		guard.Go(func() {
			defer b.conns.Add(-1)
			serveConn(ctx, conn, h, b)
		})
	}
}

func serveConn(ctx context.Context, conn *net.UnixConn, h Handler, b *budget) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Duration(requestTimeout.Load())))
	peer, err := peerOf(conn)
	if err != nil || peer.UID != os.Getuid() {
		writeResponse(conn, Response{Error: "permission denied"})
		return
	}
	var held int64
	defer func() { b.bytes.Add(-held) }()
	line, err := readLine(bufio.NewReader(conn), MaxRequest, func(n int) bool {
		// Twice the line: its bytes, and the request decoded from them.
		held += 2 * int64(n)
		return b.bytes.Add(2*int64(n)) <= MaxBuffered
	})
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
