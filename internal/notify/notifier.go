package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Sink is one way of telling the person.
type Sink interface {
	Name() string
	// Send tells n; it returns by the time ctx ends.
	Send(ctx context.Context, n Notification) error
}

// Notifier posts events and delivers them (see the package doc).
type Notifier struct {
	cfg   Config
	dir   string
	log   *slog.Logger
	sinks []Sink
	seq   atomic.Int64
	wg    sync.WaitGroup
}

// New returns a notifier that spools under dir (created 0700) and tells
// through sinks, as cfg says.
func New(cfg Config, dir string, log *slog.Logger, sinks ...Sink) *Notifier {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Notifier{cfg: cfg, dir: dir, log: log, sinks: sinks}
}

// Post spools ev, unless its kind is off, and starts its delivery in the
// background: it never waits for a notifier. An event that cannot be
// spooled is delivered from memory, alone.
func (n *Notifier) Post(ev Event) {
	if !n.cfg.On(ev.Kind) || len(n.sinks) == 0 {
		return
	}
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	if err := n.spool(ev); err != nil {
		n.log.Warn("notify: cannot spool the event; sending it alone", "kind", ev.Kind, "session", ev.Session, "err", err)
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.send([]Event{ev})
		}()
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.deliver()
	}()
}

// Wait waits, at most max, for the deliveries under way, and reports
// whether they all ended.
func (n *Notifier) Wait(max time.Duration) bool {
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(max):
		n.log.Warn("notify: deliveries still under way at exit; the spool keeps what was not taken", "waited", max)
		return false
	}
}

// spool writes ev as a file of its own in the spool, through a
// temporary name, so that a deliverer never reads half of it.
func (n *Notifier) spool(ev Event) error {
	if err := os.MkdirAll(n.dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%019d-%d-%d.json", ev.At.UnixNano(), os.Getpid(), n.seq.Add(1))
	tmp := filepath.Join(n.dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(n.dir, name))
}

// deliver takes the spool's lock, waits out the coalescing window of the
// oldest event, takes every spooled event, applies the rate limit, and
// sends what is left as one notification — after the lock is let go, so
// that a slow notifier holds up no other delivery.
func (n *Notifier) deliver() {
	lock, err := os.OpenFile(filepath.Join(n.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		n.log.Warn("notify: the spool's lock", "err", err)
		return
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		n.log.Warn("notify: locking the spool", "err", err)
		return
	}
	evs := n.take()
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if len(evs) > 0 {
		n.send(evs)
	}
}

// take reads and removes the spooled events once the oldest has waited
// the window, and drops those the rate limit holds back. The lock is held.
func (n *Notifier) take() []Event {
	names := n.spooled()
	if len(names) == 0 {
		return nil
	}
	if oldest, err := strconv.ParseInt(strings.SplitN(names[0], "-", 2)[0], 10, 64); err == nil {
		if wait := time.Until(time.Unix(0, oldest).Add(n.cfg.Window)); wait > 0 {
			time.Sleep(wait)
		}
	}
	var evs []Event
	for _, name := range n.spooled() {
		path := filepath.Join(n.dir, name)
		b, err := os.ReadFile(path)
		os.Remove(path)
		var ev Event
		if err != nil || json.Unmarshal(b, &ev) != nil {
			n.log.Warn("notify: an unreadable spooled event, dropped", "file", name, "err", err)
			continue
		}
		evs = append(evs, ev)
	}
	return n.limit(evs)
}

// spooled lists the spool's event files, oldest first.
func (n *Notifier) spooled() []string {
	ents, _ := os.ReadDir(n.dir)
	var names []string
	for _, e := range ents {
		if name := e.Name(); e.Type().IsRegular() && strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// limit drops the events of a session and kind told less than
// MinInterval ago (the record is .sent.json in the spool), and records
// the rest. The lock is held.
func (n *Notifier) limit(evs []Event) []Event {
	path := filepath.Join(n.dir, ".sent.json")
	sent := map[string]time.Time{}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &sent)
	}
	now := time.Now()
	var out []Event
	seen := map[string]bool{}
	for _, ev := range evs {
		key := ev.Host + "/" + ev.Session + "/" + ev.Kind
		if seen[key] {
			continue // coalesced: the same session and kind once
		}
		if last, ok := sent[key]; ok && now.Sub(last) < n.cfg.MinInterval {
			n.log.Info("notify: rate-limited, not told again so soon", "kind", ev.Kind, "session", ev.Session, "last", last)
			continue
		}
		seen[key] = true
		sent[key] = now
		out = append(out, ev)
	}
	for k, t := range sent {
		if now.Sub(t) > 24*time.Hour {
			delete(sent, k)
		}
	}
	if b, err := json.Marshal(sent); err == nil {
		tmp := path + ".tmp"
		if os.WriteFile(tmp, b, 0o600) == nil {
			os.Rename(tmp, path)
		}
	}
	return out
}

// send tells evs, coalesced, through every sink at once; each gets the
// timeout, and a failure or a timeout is a log line.
func (n *Notifier) send(evs []Event) {
	note := Compose(evs)
	var wg sync.WaitGroup
	for _, s := range n.sinks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
			defer cancel()
			start := time.Now()
			if err := s.Send(ctx, note); err != nil {
				n.log.Warn("notify: a notifier failed", "notifier", s.Name(), "events", len(evs), "took", time.Since(start).Round(time.Millisecond), "err", err)
				return
			}
			n.log.Info("notify: told", "notifier", s.Name(), "title", note.Title, "events", len(evs))
		}()
	}
	wg.Wait()
}
