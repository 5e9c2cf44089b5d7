package child

import (
	"io"
	"sync"
	"time"
)

// RewriteFunc sees the agent's output on its way to our terminal (see
// Spec.Rewrite). Of p it returns what to write now and how many bytes at
// p's end to keep back until more output comes; kept bytes come back at
// the start of the next call's p.
type RewriteFunc func(p []byte) (write []byte, keep int)

// rewriteHold bounds how long kept-back output waits for more: when none
// comes (the agent's prose only looked like the start of something), it is
// written as it is.
const rewriteHold = 50 * time.Millisecond

// rewriter applies a RewriteFunc between the output copy and our terminal.
// A timer writes kept bytes when no more output comes in time; the copy
// flushes what is still kept when the agent's output ends.
type rewriter struct {
	mu      sync.Mutex
	dst     io.Writer
	rewrite RewriteFunc
	pending []byte
	timer   *time.Timer
}

func newRewriter(dst io.Writer, f RewriteFunc) *rewriter {
	r := &rewriter{dst: dst, rewrite: f}
	r.timer = time.AfterFunc(time.Hour, r.Flush)
	r.timer.Stop()
	return r
}

func (r *rewriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	in := p
	if len(r.pending) > 0 {
		in = append(r.pending, p...)
	}
	write, keep := r.rewrite(in)
	if keep < 0 || keep > len(in) {
		keep = 0 // a broken RewriteFunc loses no output
	}
	var err error
	if len(write) > 0 {
		_, err = r.dst.Write(write)
	}
	// Only now: write may share in's array, which may be pending's.
	r.pending = append(r.pending[:0], in[len(in)-keep:]...)
	if keep > 0 {
		r.timer.Reset(rewriteHold)
	} else {
		r.timer.Stop()
	}
	return len(p), err
}

// Flush writes what is kept back as it is.
func (r *rewriter) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer.Stop()
	if len(r.pending) > 0 {
		r.dst.Write(r.pending)
		r.pending = r.pending[:0]
	}
}
