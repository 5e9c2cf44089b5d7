package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Handler answers one op on the remote side: it reads its arguments from
// args and gives each result to emit — once for most ops, once per item
// for a streaming one. ctx ends when the asking side has gone.
type Handler func(ctx context.Context, args json.RawMessage, emit func(result any) error) error

// keepAlive is how often Serve writes an empty reply while an op runs: a
// write is how it learns that the asking side has gone (ssh closes the
// pipe; nothing else tells a command without a terminal), so that an op
// that waits, such as following a log, ends with the connection.
var keepAlive = 5 * time.Second

// Serve answers the one request on r (what a [Client] sent) with ops,
// writing the replies to w: superclaude's `+remote` command on the other
// host. A request of another version than this one's is refused with a
// reply that says which version this is, so that the client can tell the
// person what to install; an error of the op goes back as the reply's
// error. Serve returns an error only when it could not reply at all.
func Serve(ctx context.Context, r io.Reader, w io.Writer, version string, ops map[string]Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw := bufio.NewWriter(w)
	var mu sync.Mutex
	reply := func(rep Reply) error {
		rep.Version = version
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		bw.Write(append(b, '\n'))
		if err := bw.Flush(); err != nil {
			cancel() // the asking side has gone
			return err
		}
		return nil
	}
	var req Request
	dec := json.NewDecoder(io.LimitReader(r, maxRequest))
	if err := dec.Decode(&req); err != nil {
		return reply(Reply{Error: fmt.Sprintf("superclaude +remote: reading the request: %v", err)})
	}
	if req.Version != version {
		return reply(Reply{WrongVersion: true, Error: fmt.Sprintf("superclaude %s here, %s asked", version, req.Version)})
	}
	h, ok := ops[req.Op]
	if !ok {
		return reply(Reply{Error: fmt.Sprintf("superclaude +remote: unknown operation %q", req.Op)})
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(keepAlive)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				reply(Reply{})
			}
		}
	}()
	err := h(ctx, req.Args, func(result any) error {
		b, err := json.Marshal(result)
		if err != nil {
			return err
		}
		return reply(Reply{Result: b})
	})
	close(done)
	if err != nil {
		return reply(Reply{Error: err.Error()})
	}
	return nil
}

// Args decodes an op's arguments into v, with a clear error.
func Args(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("superclaude +remote: the request's arguments: %w", err)
	}
	return nil
}

// Op makes the Handler of an op that has one result: fn gets the op's
// arguments decoded into an A, and its result is the reply.
func Op[A, R any](fn func(ctx context.Context, args A) (R, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
		var a A
		if err := Args(raw, &a); err != nil {
			return err
		}
		r, err := fn(ctx, a)
		if err != nil {
			return err
		}
		return emit(r)
	}
}
