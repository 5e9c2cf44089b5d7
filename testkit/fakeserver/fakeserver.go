// Package fakeserver is what the fakes of model APIs share: a record of the
// requests a fake answered, which a test waits on, and the fake models'
// reading of a prompt ("run: CMD").
package fakeserver

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Record is the requests a fake answered, in order. The zero value is
// ready to use; it is safe for concurrent use.
type Record[R any] struct {
	mu   sync.Mutex
	cond *sync.Cond
	reqs []R
}

func (r *Record[R]) init() {
	if r.cond == nil {
		r.cond = sync.NewCond(&r.mu)
	}
}

// Add records req. number, when not nil, is told req's number, counted
// from 1, before any other goroutine can see req.
func (r *Record[R]) Add(req R, number func(int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	if number != nil {
		number(len(r.reqs) + 1)
	}
	r.reqs = append(r.reqs, req)
	r.cond.Broadcast()
}

// All returns the recorded requests.
func (r *Record[R]) All() []R {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]R(nil), r.reqs...)
}

// Mark is the number of requests recorded so far, for WaitAfter.
func (r *Record[R]) Mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// Wake wakes every WaitAfter, as a closing server does.
func (r *Record[R]) Wake() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	r.cond.Broadcast()
}

// WaitAfter waits until a request recorded after mark satisfies pred (nil:
// any) and returns it; ok is false when none came within timeout.
func (r *Record[R]) WaitAfter(mark int, timeout time.Duration, pred func(R) bool) (req R, ok bool) {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, r.Wake)
	defer t.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	for i := mark; ; {
		for ; i < len(r.reqs); i++ {
			if pred == nil || pred(r.reqs[i]) {
				return r.reqs[i], true
			}
		}
		if !time.Now().Before(deadline) {
			return req, false
		}
		r.cond.Wait()
	}
}

// Line returns what follows prefix on the last line of text that starts
// with it: a fake model's reading of "run: CMD".
func Line(text, prefix string) (string, bool) {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), prefix); ok && rest != "" {
			return rest, true
		}
	}
	return "", false
}

// Script is the replies a test queued for a fake, in order. The zero value
// is ready to use; it is safe for concurrent use.
type Script[P any] struct {
	mu sync.Mutex
	q  []P
}

// Push appends replies.
func (s *Script[P]) Push(ps ...P) {
	s.mu.Lock()
	s.q = append(s.q, ps...)
	s.mu.Unlock()
}

// Take removes and returns the first reply for which fits says yes (nil:
// the first); ok is false when none does.
func (s *Script[P]) Take(fits func(P) bool) (p P, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, r := range s.q {
		if fits == nil || fits(r) {
			s.q = append(s.q[:i:i], s.q[i+1:]...)
			return r, true
		}
	}
	return p, false
}

// Listen serves h on 127.0.0.1 at a random port and returns its URL
// (http://127.0.0.1:PORT) and the server, to close. It panics if it
// cannot listen: a test cannot go on without its fake.
func Listen(h http.Handler) (string, *http.Server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	hs := &http.Server{Handler: h}
	go hs.Serve(ln)
	return "http://" + ln.Addr().String(), hs
}
