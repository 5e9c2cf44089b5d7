package control

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// FuzzControlProtocol feeds whatever bytes a client could send to the
// server's connection handling, over a real unix socket pair: it never
// panics, answers with exactly one line that is a Response, passes the
// handler only a request that decoded whole, and holds no budget once the
// connection is done.
func FuzzControlProtocol(f *testing.F) {
	for _, s := range []string{
		`{"op":"ping"}` + "\n", `{"op":"restart","session":"x","now":true}`, `{"op":"statusline","payload":{"a":1}}` + "\n",
		`{"op":1}`, `{`, "", "\n", "{\"op\":\"ping\"}\n{\"op\":\"stop\"}\n", `{"payload":"` + string(make([]byte, 5000)) + `"}`,
		`{"op":"ping","payload":}`, "\xff\xfe", `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	requestTimeout.Store(int64(time.Second))
	f.Fuzz(func(t *testing.T, data []byte) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Skip(err) // out of descriptors: not the protocol's fault
		}
		server := fileConn(t, fds[0])
		client := fileConn(t, fds[1])
		defer client.Close()
		b := &budget{}
		sl := b.admit(server)
		called := 0
		done := make(chan struct{})
		go func() {
			defer close(done)
			serveConn(context.Background(), server, func(_ context.Context, req Request, _ Peer) Response {
				called++
				if _, err := json.Marshal(req); err != nil {
					t.Errorf("the handler got a request that does not encode: %v", err)
				}
				return Response{OK: true}
			}, b, sl)
		}()
		client.SetDeadline(time.Now().Add(5 * time.Second))
		client.Write(data)
		client.CloseWrite()
		line, err := bufio.NewReader(client).ReadBytes('\n')
		<-done
		if called > 1 {
			t.Fatalf("the handler was called %d times for one connection", called)
		}
		if len(line) > 0 {
			var resp Response
			if err := json.Unmarshal(line, &resp); err != nil {
				t.Fatalf("answer %q is not a Response: %v", line, err)
			}
			if called == 0 && resp.OK {
				t.Fatalf("an OK answer without a request handled: %q", line)
			}
		} else if called == 1 {
			t.Fatalf("a handled request got no answer (%v)", err)
		}
		if b.bytes.Load() != 0 {
			t.Fatalf("the budget still holds %d bytes after the connection", b.bytes.Load())
		}
		if b.release(sl); b.conns != 0 || len(b.reading) != 0 {
			t.Fatalf("the budget still holds %d connections after the connection", b.conns)
		}
	})
}

func fileConn(t *testing.T, fd int) *net.UnixConn {
	f := os.NewFile(uintptr(fd), "socketpair")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	return c.(*net.UnixConn)
}
