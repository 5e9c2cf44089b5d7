// Package alarm owns the one timer a waiting supervisor keeps: the next
// thing due (a limit's reset, the end of the dehydrate wait), fired once,
// at its time, by the kernel.
//
// Why not a Go timer: a Go timer a minute away costs a burst of about 60
// context switches when it fires. The runtime's poller sleeps in
// epoll_wait with a millisecond timeout, which Linux lets run up to 0.1 %
// late (56 ms for a 56 s wait: the kernel's timer slack for long sleeps),
// while the runtime's monitor thread wakes at the timer's time and spins,
// 20 µs at a time, until the poller runs it. Measured on an idle
// supervisor with strace: 50 nanosleeps in the 52 ms between the two,
// which made a once-a-minute heartbeat (since gone) read as 1 wakeup a
// second. A
// timerfd in the poller fires on time (its slack is 50 µs) and leaves no
// Go timer for the monitor to wait on. Elsewhere (macOS) it is a Go timer.
package alarm

import (
	"sync"
	"time"
)

// An Alarm fires once after the duration it was last Set to.
type Alarm struct {
	c chan struct{}
	*impl
}

// New returns an alarm that is not set.
func New() *Alarm {
	a := &Alarm{c: make(chan struct{}, 1)}
	a.impl = newImpl(a.fire)
	return a
}

// C receives a value when the alarm fires.
func (a *Alarm) C() <-chan struct{} { return a.c }

// Set makes the alarm fire once after d (at once when d ≤ 0), in place
// of any earlier setting.
func (a *Alarm) Set(d time.Duration) {
	if d <= 0 {
		d = time.Nanosecond
	}
	a.set(d)
}

// Stop unsets the alarm.
func (a *Alarm) Stop() { a.set(0) }

// Close unsets the alarm for good and releases what it holds.
func (a *Alarm) Close() { a.close() }

func (a *Alarm) fire() {
	select {
	case a.c <- struct{}{}:
	default:
	}
}

// goTimer is a Go timer: the alarm where the system gives no timerfd.
type goTimer struct {
	mu   sync.Mutex
	t    *time.Timer
	fire func()
}

func (g *goTimer) set(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.t != nil {
		g.t.Stop()
		g.t = nil
	}
	if d > 0 {
		g.t = time.AfterFunc(d, g.fire)
	}
}
