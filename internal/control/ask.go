package control

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Answer is what a live session owner said when a view asked after it
// (Ask).
type Answer int

const (
	// NoSocket: it serves no control socket, so it is no supervisor — a
	// shell where a session was activated by hand.
	NoSocket Answer = iota
	// Answered: it is a supervisor, and it answered.
	Answered
	// Silent: it serves a control socket but did not answer within
	// AnswerWithin: it may hang (stopped, or stuck).
	Silent
)

// AnswerWithin is how long a view waits for the live supervisors it asks
// after, all of them at once.
//
// A view asks; nothing is written while nobody looks. A supervisor used to
// rewrite its session's state file every minute (two fsyncs) so that a view
// could call it stale when the heartbeat grew old — a wakeup a minute for
// every idle agent, to tell a hung supervisor from a quiet one. Asking
// costs the supervisor one wakeup per view, and a view with a supervisor
// that hangs takes this long. (A variable for tests.)
var AnswerWithin = time.Second

// Ask asks each of owners, all at once, whether it answers on its control
// socket, within AnswerWithin; owners must be alive (a dead one has no
// one to answer). The answers are in the order of owners.
func Ask(owners []proc.Identity) []Answer {
	out := make([]Answer, len(owners))
	ctx, cancel := context.WithTimeout(context.Background(), AnswerWithin)
	defer cancel()
	var wg sync.WaitGroup
	for i, id := range owners {
		if id.Start == 0 {
			// A seed-era file: its PID's holder now, whom the
			// call verifies.
			if cur, err := proc.Of(id.PID); err == nil {
				id = cur
			}
		}
		sock, err := FindSocket(id.PID)
		if err != nil {
			continue // NoSocket
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = answerOf(NewClient(sock, id).Ping(ctx))
		}()
	}
	wg.Wait()
	return out
}

// answerOf is the Answer of a ping that returned err: no answer in time is
// Silent; a socket nobody listens on, or that another process serves (a
// file left by a dead supervisor whose PID a shell has now), is NoSocket;
// any other answer, a refusal too ("busy"), is an answer.
func answerOf(err error) Answer {
	var op *net.OpError
	switch {
	case err == nil:
		return Answered
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return Silent
	case errors.Is(err, ErrWrongServer) || errors.As(err, &op) && op.Op == "dial":
		return NoSocket
	}
	return Answered
}
