package notify

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// told records what a sink was given, safe for the deliveries' goroutines.
type told struct {
	mu sync.Mutex
	ns []Notification
}

func (r *told) sink() Sink {
	return sinkFunc(func(n Notification) { r.mu.Lock(); r.ns = append(r.ns, n); r.mu.Unlock() })
}

// take returns what was told since the last take.
func (r *told) take() []Notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.ns
	r.ns = nil
	return out
}

// The rate limit: one session's one kind is told at most once per
// MinInterval — an agent that asks for input again and again is not a
// storm — while another kind of the same session, and the same kind of
// another session, are told at once. The record is in the spool, so a
// second superclaude (another pane, the next run) keeps to it, and once
// MinInterval has passed the kind is told again.
func TestRateLimitIsPerSessionAndKind(t *testing.T) {
	spool := filepath.Join(t.TempDir(), "spool")
	cfg := DefaultConfig()
	cfg.Window, cfg.MinInterval = 10*time.Millisecond, time.Hour
	var rec told
	post := func(n *Notifier, kind, session string) []Notification {
		t.Helper()
		n.Post(Event{Kind: kind, Session: session, Host: "box", Want: "answer"})
		if !n.Wait(5 * time.Second) {
			t.Fatal("a delivery did not end")
		}
		return rec.take()
	}
	n := New(cfg, spool, nil, rec.sink())
	if got := post(n, NeedsInput, "A"); len(got) != 1 {
		t.Fatalf("the first needs-input of A: told %d times, want once", len(got))
	}
	if got := post(n, NeedsInput, "A"); len(got) != 0 {
		t.Fatalf("A's needs-input again within the interval was told: %+v", got)
	}
	if got := post(n, Limit, "A"); len(got) != 1 || !strings.Contains(got[0].Title, "A") {
		t.Fatalf("another kind of A: told %+v, want once", got)
	}
	if got := post(n, NeedsInput, "B"); len(got) != 1 || !strings.Contains(got[0].Title, "B") {
		t.Fatalf("the same kind of another session: told %+v, want once", got)
	}
	other := New(cfg, spool, nil, rec.sink())
	if got := post(other, NeedsInput, "A"); len(got) != 0 {
		t.Fatalf("a second notifier on the same spool told A's needs-input again: %+v", got)
	}
	cfg.MinInterval = time.Nanosecond // the interval has passed
	later := New(cfg, spool, nil, rec.sink())
	if got := post(later, NeedsInput, "A"); len(got) != 1 {
		t.Fatalf("after the interval A's needs-input: told %d times, want once", len(got))
	}
}
