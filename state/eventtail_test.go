package state

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// second is second sec of a test's day.
func second(sec int) time.Time { return time.Date(2026, 11, 22, 10, 0, sec, 0, time.UTC) }

// Regression (hostile neighbour): a line of the event log was read whole
// however long it was, so a log holding one huge line made the dashboard
// take that much memory on every first reading. A line over maxEventLine
// is skipped, and the events around it still count.
func TestEventTailSkipsALineTooLongToBeAnEvent(t *testing.T) {
	root := t.TempDir()
	var log bytes.Buffer
	log.WriteString(eventLine("before", "transition", second(1)))
	log.WriteString(`{"time":"2026-11-22T10:00:02Z","session":"huge","reason":"`)
	log.Write(bytes.Repeat([]byte("x"), 3<<20)) // over maxEventLine
	log.WriteString("\"}\n")
	log.WriteString(eventLine("after", "transition", second(3)))
	if err := os.WriteFile(filepath.Join(root, EventsFile), log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewEventTail().Latest(storeAt(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if got["before"] == nil || got["after"] == nil || got["huge"] != nil {
		t.Errorf("latest events: before %v, huge %v, after %v; want the huge one skipped and the others read",
			got["before"] != nil, got["huge"] != nil, got["after"] != nil)
	}
}

// Regression: a line longer than the read buffer (64 KiB) was gathered
// after the buffer had been refilled over its start, so a long but valid
// event (a long reason) was garbled and dropped.
func TestEventTailReadsALongEventWhole(t *testing.T) {
	root := t.TempDir()
	long, _ := json.Marshal(Event{Time: second(2), Session: "long", Kind: "transition", Reason: strings.Repeat("why ", 50_000)})
	log := eventLine("before", "transition", second(1)) + string(long) + "\n" + eventLine("after", "transition", second(3))
	if err := os.WriteFile(filepath.Join(root, EventsFile), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewEventTail().Latest(storeAt(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if got["long"] == nil || len(got["long"].Reason) != 200_000 || got["before"] == nil || got["after"] == nil {
		t.Errorf("sessions read: %v; want the 200 KB event whole, and the others", keys(got))
	}
}

// Of a log that grew by more than maxEventsRead only the end is read, from
// the first whole line in it.
func TestEventTailReadsOnlyTheEndOfAHugeLog(t *testing.T) {
	defer func(n int64) { maxEventsRead = n }(maxEventsRead)
	root := t.TempDir()
	var log bytes.Buffer
	log.WriteString(eventLine("old", "transition", second(1)))
	for log.Len() < 4096 {
		log.WriteString(eventLine("filler", "transition", second(2)))
	}
	end := eventLine("cut", "transition", second(3)) + eventLine("new", "transition", second(4))
	log.WriteString(end)
	maxEventsRead = int64(len(end) - 10) // starts inside the "cut" line
	if err := os.WriteFile(filepath.Join(root, EventsFile), log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewEventTail().Latest(storeAt(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if got["new"] == nil || got["old"] != nil || got["filler"] != nil || got["cut"] != nil {
		t.Errorf("sessions read: %v; want only the last whole line's", keys(got))
	}
}

// A window that starts exactly at a line's start keeps that line.
func TestEventTailKeepsTheFirstLineOfAWindowThatStartsOnOne(t *testing.T) {
	defer func(n int64) { maxEventsRead = n }(maxEventsRead)
	root := t.TempDir()
	first, last := eventLine("a", "transition", second(1)), eventLine("b", "transition", second(2))
	maxEventsRead = int64(len(last))
	if err := os.WriteFile(filepath.Join(root, EventsFile), []byte(first+last), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewEventTail().Latest(storeAt(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if got["b"] == nil || got["a"] != nil {
		t.Errorf("sessions read: %v; want b, the window's one whole line", keys(got))
	}
}

func keys(m map[string]*Event) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

func eventLine(session, kind string, at time.Time) string {
	b, _ := json.Marshal(Event{Time: at, Session: session, Kind: kind, Actor: "test"})
	return string(b) + "\n"
}

func lastKinds(t *testing.T, tail *EventTail, root string) string {
	t.Helper()
	last, err := tail.Latest(storeAt(t, root))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range []string{"a", "b"} {
		if ev := last[s]; ev != nil {
			out = append(out, s+"="+ev.Kind)
		}
	}
	return strings.Join(out, " ")
}

func TestEventTailReadsOnlyWhatWasAppended(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, EventsFile)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	appendLine(t, log+".1", eventLine("a", "old-a", t0))
	appendLine(t, log, eventLine("b", "b1", t0.Add(time.Second)))
	tail := NewEventTail()
	if got := lastKinds(t, tail, root); got != "a=old-a b=b1" {
		t.Fatalf("first reading: %s", got)
	}
	// A line still being written is not read, nor is the offset moved
	// past it.
	full := eventLine("a", "a2", t0.Add(2*time.Second))
	appendLine(t, log, full[:20])
	if got := lastKinds(t, tail, root); got != "a=old-a b=b1" {
		t.Fatalf("with a half line: %s", got)
	}
	appendLine(t, log, full[20:]+"not json\n")
	if got := lastKinds(t, tail, root); got != "a=a2 b=b1" {
		t.Fatalf("after the line was finished: %s", got)
	}
	before := tail.roots[root].off

	// Rotation: what was appended to the old file after the last reading
	// is read from .1, then the new file from its start.
	appendLine(t, log, eventLine("b", "b-late", t0.Add(3*time.Second)))
	if err := os.Rename(log, log+".1"); err != nil {
		t.Fatal(err)
	}
	appendLine(t, log, eventLine("a", "a-new", t0.Add(4*time.Second)))
	if got := lastKinds(t, tail, root); got != "a=a-new b=b-late" {
		t.Fatalf("after rotation: %s (offset was %d)", got, before)
	}

	// Truncation (a person emptying the log): read again from the start.
	if err := os.Truncate(log, 0); err != nil {
		t.Fatal(err)
	}
	if got := lastKinds(t, tail, root); got != "a=a-new b=b-late" {
		t.Fatalf("after truncation: %s", got)
	}
	appendLine(t, log, eventLine("b", "b-trunc", t0.Add(5*time.Second)))
	if got := lastKinds(t, tail, root); got != "a=a-new b=b-trunc" {
		t.Fatalf("after truncation: %s", got)
	}
}

// TestEventTailNeverHangsOnAFIFONorFollowsASymlink: the event log is in a
// directory anyone of the same user can write; a FIFO there must not hang
// the dashboard, and a symlink must not lead it out of the root.
func TestEventTailNeverHangsOnAFIFONorFollowsASymlink(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, EventsFile)
	if err := syscall.Mkfifo(log, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := NewEventTail().Latest(storeAt(t, root))
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("a FIFO read as %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO event log hangs")
	}

	os.Remove(log)
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte(eventLine("a", "leaked", time.Now())), 0o600)
	if err := os.Symlink(secret, log); err != nil {
		t.Fatal(err)
	}
	last, err := NewEventTail().Latest(storeAt(t, root))
	if err == nil || last["a"] != nil {
		t.Fatalf("a symlinked log was read: %v %v", last, err)
	}
}

// storeAt is the store of the sessions root root, for its event log.
func storeAt(t *testing.T, root string) *Store {
	t.Helper()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
