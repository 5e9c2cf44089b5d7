package control

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Each method of the client sends its own operation with its fields, and
// reads the supervisor's answer into its type.
func TestClientSpeaksEachOperation(t *testing.T) {
	got := make(chan Request, 8)
	path := serve(t, func(ctx context.Context, req Request, peer Peer) Response {
		got <- req
		switch req.Op {
		case OpStatus:
			b, _ := json.Marshal(map[string]any{"supervisor": "1:2:3", "session": "X", "starts": 2})
			return Response{OK: true, Data: b}
		case OpRestart:
			b, _ := json.Marshal(RestartAnswer{Session: "X", Dir: req.Session, Waiting: !req.Now})
			return Response{OK: true, Data: b}
		case OpStatusLine:
			return Response{OK: true, Data: req.Payload}
		}
		return Response{OK: true}
	})
	me, _ := proc.Self()
	c := NewClient(path, me)
	ctx := context.Background()
	if err := c.Ping(ctx); err != nil || (<-got).Op != OpPing {
		t.Fatalf("ping: %v", err)
	}
	if st, err := c.Status(ctx); err != nil || st.Session != "X" || st.Starts != 2 || st.Supervisor != "1:2:3" {
		t.Fatalf("status: %+v, %v", st, err)
	}
	<-got
	ans, err := c.Restart(ctx, Restart{Session: "/s/X", Reason: "why", Transcript: "t.jsonl", Resume: true})
	if err != nil || ans.Dir != "/s/X" || !ans.Waiting {
		t.Fatalf("restart: %+v, %v", ans, err)
	}
	if req := <-got; req.Op != OpRestart || req.Reason != "why" || req.Transcript != "t.jsonl" || req.Now || !req.Resume {
		t.Fatalf("restart sent %+v", req)
	}
	if err := c.Stop(ctx, "/s/X", "done", true); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.Op != OpStop || req.Session != "/s/X" || req.Reason != "done" || !req.Now {
		t.Fatalf("stop sent %+v", req)
	}
	var line struct{ Session string }
	if err := c.StatusLine(ctx, json.RawMessage(`{"Session":"X"}`), &line); err != nil || line.Session != "X" {
		t.Fatalf("status line: %+v, %v", line, err)
	}
}

// A supervisor that accepts and never answers holds a call no longer than
// the operation's timeout, whatever the caller's context allows.
func TestClientCallsAreBoundedInTime(t *testing.T) {
	dir, err := os.MkdirTemp("", "sc-ctl-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	me, _ := proc.Self()
	start := time.Now()
	err = NewClient(path, me).StatusLine(context.Background(), json.RawMessage(`{}`), new(any))
	if took := time.Since(start); err == nil || took > statusLineTimeout+time.Second {
		t.Fatalf("a silent supervisor: %v after %s, want an error within %s", err, took, statusLineTimeout)
	}
}

// Dial finds nothing to call for a supervisor that is gone, and says so.
func TestDialOfASupervisorThatIsGone(t *testing.T) {
	me, _ := proc.Self()
	gone := me
	gone.Start++ // the same PID, another process
	if _, err := Dial(gone); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Dial of a supervisor that is gone: %v, want ErrNotRunning", err)
	}
	if _, err := Dial(proc.Identity{}); err == nil {
		t.Fatal("Dial of no supervisor: no error")
	}
}
