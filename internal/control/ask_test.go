package control

import (
	"context"
	"net"
	"os"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// A view tells a supervisor that answers from one that serves a socket
// and says nothing (stopped, or stuck) and from a live process that serves
// none (a shell where a session was activated by hand), asking each once,
// within AnswerWithin. It replaced the heartbeat a supervisor wrote every
// minute for the views, which woke every idle supervisor (issue 22).
func TestAskTellsAnsweringSilentAndNoSupervisor(t *testing.T) {
	freshRuntimeBase(t)
	defer func(d time.Duration) { AnswerWithin = d }(AnswerWithin)
	AnswerWithin = 300 * time.Millisecond
	me, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	sock, err := SocketPath(me.PID)
	if err != nil {
		t.Fatal(err)
	}

	if got := Ask([]proc.Identity{me}); got[0] != NoSocket {
		t.Fatalf("no socket: %v, want NoSocket", got[0])
	}

	// A socket that takes connections and never answers.
	raw, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got := Ask([]proc.Identity{me})
	took := time.Since(start)
	raw.Close()
	os.Remove(sock)
	if got[0] != Silent {
		t.Fatalf("a socket that never answers: %v, want Silent", got[0])
	}
	if took > 10*AnswerWithin {
		t.Fatalf("a silent supervisor held the view %s, past its bound %s", took, AnswerWithin)
	}

	serveAt(t, sock, func(context.Context, Request, Peer) Response { return Response{OK: true} })
	if got := Ask([]proc.Identity{me, me}); got[0] != Answered || got[1] != Answered {
		t.Fatalf("a serving supervisor: %v, want Answered twice", got)
	}
	// Another process's identity on this socket: not its supervisor.
	other := me
	other.Start++
	if got := Ask([]proc.Identity{other}); got[0] != NoSocket {
		t.Fatalf("a socket served by another identity: %v, want NoSocket", got[0])
	}
}
