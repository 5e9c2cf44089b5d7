package dashboard

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
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
	if err := os.WriteFile(filepath.Join(root, state.EventsFile), log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := newEventTail().last(root)
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
	long, _ := json.Marshal(state.Event{Time: second(2), Session: "long", Kind: "transition", Reason: strings.Repeat("why ", 50_000)})
	log := eventLine("before", "transition", second(1)) + string(long) + "\n" + eventLine("after", "transition", second(3))
	if err := os.WriteFile(filepath.Join(root, state.EventsFile), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := newEventTail().last(root)
	if err != nil {
		t.Fatal(err)
	}
	if got["long"] == nil || len(got["long"].Reason) != 200_000 || got["before"] == nil || got["after"] == nil {
		t.Errorf("sessions read: %v; want the 200 KB event whole, and the others", keys(got))
	}
}

// Of a log that grew by more than maxEventRead only the end is read, from
// the first whole line in it.
func TestEventTailReadsOnlyTheEndOfAHugeLog(t *testing.T) {
	defer func(n int64) { maxEventRead = n }(maxEventRead)
	root := t.TempDir()
	var log bytes.Buffer
	log.WriteString(eventLine("old", "transition", second(1)))
	for log.Len() < 4096 {
		log.WriteString(eventLine("filler", "transition", second(2)))
	}
	end := eventLine("cut", "transition", second(3)) + eventLine("new", "transition", second(4))
	log.WriteString(end)
	maxEventRead = int64(len(end) - 10) // starts inside the "cut" line
	if err := os.WriteFile(filepath.Join(root, state.EventsFile), log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := newEventTail().last(root)
	if err != nil {
		t.Fatal(err)
	}
	if got["new"] == nil || got["old"] != nil || got["filler"] != nil || got["cut"] != nil {
		t.Errorf("sessions read: %v; want only the last whole line's", keys(got))
	}
}

// A window that starts exactly at a line's start keeps that line.
func TestEventTailKeepsTheFirstLineOfAWindowThatStartsOnOne(t *testing.T) {
	defer func(n int64) { maxEventRead = n }(maxEventRead)
	root := t.TempDir()
	first, last := eventLine("a", "transition", second(1)), eventLine("b", "transition", second(2))
	maxEventRead = int64(len(last))
	if err := os.WriteFile(filepath.Join(root, state.EventsFile), []byte(first+last), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := newEventTail().last(root)
	if err != nil {
		t.Fatal(err)
	}
	if got["b"] == nil || got["a"] != nil {
		t.Errorf("sessions read: %v; want b, the window's one whole line", keys(got))
	}
}

func keys(m map[string]*state.Event) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
