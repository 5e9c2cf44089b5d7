package remote

import (
	"context"
	"sync"
	"time"
)

// Reach is what asking one host came to, for a view.
type Reach struct {
	Host string
	// Err is why the host did not answer (nil when it did).
	Err error
	// LastGood is when it last answered: now, when it did; zero when it
	// never has.
	LastGood time.Time
}

// Ask asks every host at once, each given at most timeout, and returns
// when each has answered or run out of time: one host that does not
// answer never holds up another, nor the caller longer than timeout. ask
// does the asking (a Client call); the outcome of each is recorded in h,
// so that a host that stops answering is shown with the time of its last
// good answer. The answers are in hosts' order.
func (h Hosts) Ask(ctx context.Context, hosts []string, timeout time.Duration, ask func(ctx context.Context, host string) error) []Reach {
	at := make(map[string]int, len(hosts))
	for i, host := range hosts {
		at[host] = i
	}
	out := make([]Reach, len(hosts))
	for r := range h.AskEach(ctx, hosts, timeout, ask) {
		out[at[r.Host]] = r
	}
	return out
}

// AskEach is Ask, answer by answer: each host's Reach is sent as soon as
// that host has answered or run out of time, in the order they come, so
// that a view shows a host that answers at once without waiting for one
// that does not. The channel is closed once every host is in; ask has
// then returned for each.
func (h Hosts) AskEach(ctx context.Context, hosts []string, timeout time.Duration, ask func(ctx context.Context, host string) error) <-chan Reach {
	ch := make(chan Reach, len(hosts))
	var wg sync.WaitGroup
	for _, host := range hosts {
		wg.Go(func() {
			c, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			err := ask(c, host)
			at := time.Now()
			r := Reach{Host: host, Err: err}
			if h.File != "" {
				h.Answered(host, at, err)
			}
			if err == nil {
				r.LastGood = at
			} else if h.File != "" {
				r.LastGood = h.Get(host).LastGood
			}
			ch <- r
		})
	}
	go func() {
		wg.Wait()
		close(ch)
	}()
	return ch
}
