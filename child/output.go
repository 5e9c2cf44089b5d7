package child

import "io"

// smallWrite is the largest output the relay writes from the poller's
// thread; larger writes block a thread of their own (see outputWriter).
const smallWrite = 4096

// tryWriter writes what a file takes without waiting for room.
type tryWriter interface {
	TryWrite(p []byte) (int, error)
}

// outputWriter writes the agent's output to our terminal two ways. A small
// write (an echo, a redraw) goes through the non-blocking file in the
// poller, so it costs no thread hand-off: that is the keystroke's latency.
// Bulk output, and whatever the terminal does not take at once, goes
// through the blocking file: the write then blocks a thread of its own in
// the kernel while the poller's thread keeps reading the agent's pty, the
// two copies run on two cores, and throughput stays that of the decoupled
// copy.
type outputWriter struct {
	fast     tryWriter
	blocking io.Writer
}

func (o *outputWriter) Write(p []byte) (int, error) {
	done := 0
	if len(p) <= smallWrite {
		n, err := o.fast.TryWrite(p)
		if err != nil || n == len(p) {
			return n, err
		}
		done = n
	}
	n, err := o.blocking.Write(p[done:])
	return done + n, err
}
