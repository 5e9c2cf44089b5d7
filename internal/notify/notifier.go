package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
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
	name, err := n.spool(ev)
	if err != nil {
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
		n.deliver(name, ev)
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

// spoolDir opens the spool directory, creating it (0700) and the state
// directory above it. Every file in it is reached through safefs, as
// every file in the state directory is: a link, a FIFO or another user's
// file planted there is refused, never followed nor waited on.
func (n *Notifier) spoolDir() (*safefs.Dir, error) {
	parent := filepath.Dir(n.dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	p, err := safefs.Open(parent, "")
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Child(filepath.Base(n.dir), true)
}

// maxSpooled bounds what is read of one spooled event, and of the rate
// limit's record.
const maxSpooled = 1 << 20

// sentFile is the rate limit's record in the spool: when each session's
// each kind was last told.
const sentFile = ".sent.json"

// spool writes ev as a file of its own in the spool, through a
// temporary name, so that a deliverer never reads half of it, and
// returns its name.
func (n *Notifier) spool(ev Event) (string, error) {
	d, err := n.spoolDir()
	if err != nil {
		return "", err
	}
	defer d.Close()
	b, err := json.Marshal(ev)
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("%019d-%d-%d.json", ev.At.UnixNano(), os.Getpid(), n.seq.Add(1))
	return name, d.WriteAtomic(name, b, false)
}

// lockWait is how long a delivery waits for the spool's lock beyond the
// coalescing window, which a deliverer holds it for.
const lockWait = 2 * time.Second

// deliver takes the spool's lock, waits out the coalescing window of the
// oldest event, takes every spooled event, applies the rate limit, and
// sends what is left as one notification — after the lock is let go, so
// that a slow notifier holds up no other delivery.
//
// A lock held past the window and lockWait — by a superclaude stopped
// with Ctrl-Z as it held it, or on purpose — is not waited on for ever:
// this delivery takes back its own event, name in the spool, and tells it
// alone, unless the holder took it meanwhile (then the holder tells it).
func (n *Notifier) deliver(name string, ev Event) {
	d, err := n.spoolDir()
	if err != nil {
		n.log.Warn("notify: the spool", "err", err)
		return
	}
	defer d.Close()
	lock, err := d.LockWithin(".lock", n.cfg.Window+lockWait)
	if errors.Is(err, safefs.ErrLocked) {
		if d.Remove(name) == nil {
			n.log.Warn("notify: the spool's lock is held by another process that does not let go (stopped?); telling this event alone, without the rate limit",
				"kind", ev.Kind, "session", ev.Session)
			n.send([]Event{ev})
		}
		return
	}
	if err != nil {
		n.log.Warn("notify: locking the spool", "err", err)
		return
	}
	evs := n.take(d)
	lock.Unlock()
	if len(evs) > 0 {
		n.send(evs)
	}
}

// take reads and removes the spooled events once the oldest has waited
// the window, and drops those the rate limit holds back. The lock is held.
func (n *Notifier) take(d *safefs.Dir) []Event {
	names := spooled(d)
	if len(names) == 0 {
		return nil
	}
	if oldest, err := strconv.ParseInt(strings.SplitN(names[0], "-", 2)[0], 10, 64); err == nil {
		if wait := time.Until(time.Unix(0, oldest).Add(n.cfg.Window)); wait > 0 {
			time.Sleep(wait)
		}
	}
	var evs []Event
	for _, name := range spooled(d) {
		b, err := d.ReadFile(name, maxSpooled, "a spooled notification")
		d.Remove(name)
		var ev Event
		if err == nil {
			err = json.Unmarshal(b, &ev)
		}
		if err != nil {
			n.log.Warn("notify: an unreadable spooled event, dropped", "file", name, "err", err)
			continue
		}
		evs = append(evs, ev)
	}
	return n.limit(d, evs)
}

// spooled lists the spool's event files, oldest first: the names of
// events (a temporary file's name starts with a dot).
func spooled(d *safefs.Dir) []string {
	all, _ := d.Names()
	var names []string
	for _, name := range all {
		if strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// limit drops the events of a session and kind told less than
// MinInterval ago (the record is sentFile in the spool), and records
// the rest. The lock is held.
func (n *Notifier) limit(d *safefs.Dir, evs []Event) []Event {
	sent := map[string]time.Time{}
	if b, err := d.ReadFile(sentFile, maxSpooled, "the notifications' rate record"); err == nil {
		json.Unmarshal(b, &sent)
	} else if !errors.Is(err, fs.ErrNotExist) {
		n.log.Warn("notify: the rate record, started again", "err", err)
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
		if err := d.WriteAtomic(sentFile, b, false); err != nil {
			n.log.Warn("notify: writing the rate record", "err", err)
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
