package child

import (
	"io"
	"sync/atomic"

	"github.com/superclaude/superclaude/internal/guard"
)

// pipeChunks is how many chunks the output copy holds between its reader
// and its writer; chunkSize is the size of each read.
const (
	pipeChunks = 32
	chunkSize  = 16 * 1024
	maxWrite   = 128 * 1024
)

// copyDecoupled copies src to dst through a bounded queue, with the read
// and the write in goroutines of their own. A pty hands out at most a few
// kilobytes per read and blocks its writer as soon as its small buffer is
// full; copying in one goroutine makes the agent's pty and our terminal
// take turns, each idle while the other works. Decoupled, both run at once,
// and the writer coalesces what has queued up into one larger write.
// It returns when src reports an error (EIO once the agent's terminal has
// no holder left) and everything read has been written.
func copyDecoupled(dst io.Writer, src io.Reader, stats *copyStats) {
	chunks := make(chan []byte, pipeChunks)
	free := make(chan []byte, pipeChunks+1)
	for i := 0; i < pipeChunks+1; i++ {
		free <- make([]byte, chunkSize)
	}
	guard.Go(func() {
		defer close(chunks)
		for {
			buf := <-free
			n, err := src.Read(buf)
			if n > 0 {
				stats.read.Add(int64(n))
				chunks <- buf[:n]
			} else {
				free <- buf
			}
			if err != nil {
				return
			}
		}
	})
	out := make([]byte, 0, maxWrite)
	writeErr := false
	for c := range chunks {
		out = append(out[:0], c...)
		free <- c[:cap(c)]
	more:
		for len(out)+chunkSize <= maxWrite {
			select {
			case c, ok := <-chunks:
				if !ok {
					break more
				}
				out = append(out, c...)
				free <- c[:cap(c)]
			default:
				break more
			}
		}
		// After a write error (our terminal is gone) keep draining the
		// agent's output so that it is never blocked on a full pty.
		if !writeErr {
			if _, err := dst.Write(out); err != nil {
				writeErr = true
			}
		}
		stats.written.Add(int64(len(out)))
	}
}

// copyStats counts what a copy has read and written, so that a suspend can
// wait for the output already read to reach the terminal.
type copyStats struct {
	read, written atomic.Int64
}

// idle reports whether everything read has been written.
func (c *copyStats) idle() bool { return c.read.Load() == c.written.Load() }
