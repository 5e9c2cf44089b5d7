package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// What superclaude says can quote a file or another program: no escape
// reaches the terminal, and a line it breaks is indented under the first,
// so that it cannot pass for a line of superclaude's own.
func TestSayLetsNoEscapeThrough(t *testing.T) {
	var b strings.Builder
	Say(&b, "bad \x1b]52;c;cGF3bmVk\x07file\nsuperclaude: name")
	if got := b.String(); got != "superclaude: bad ]52;c;cGF3bmVkfile\n  superclaude: name\n" {
		t.Fatalf("said %q", got)
	}
	b.Reset()
	WriteLines(&b, "one\x1b[2J\ntwo")
	if got := b.String(); got != "one[2J\ntwo\n" {
		t.Fatalf("lines %q", got)
	}
}

// +status and +session list: a table, JSON (an array, [] when empty), or
// a line that says there is nothing.
func TestWriteStatus(t *testing.T) {
	var b strings.Builder
	if err := WriteStatus(&b, nil, false, time.Now()); err != nil || b.String() != "no sessions yet\n" {
		t.Fatalf("none: %q %v", b.String(), err)
	}
	b.Reset()
	if err := WriteStatus(&b, nil, true, time.Now()); err != nil || b.String() != "[]\n" {
		t.Fatalf("none as JSON: %q %v", b.String(), err)
	}
	b.Reset()
	if err := WriteStatus(&b, []SessionView{{Name: "S", State: Running}}, false, time.Now()); err != nil || !strings.Contains(b.String(), "S") {
		t.Fatalf("a table: %q %v", b.String(), err)
	}
}

// +why prints an event for a person, as recorded (--verbose), or as one
// line of JSON (--json).
func TestEventWriterWritesEachForm(t *testing.T) {
	ev := state.Event{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Session: "S", Actor: "supervisor", Kind: "kill", Reason: "overflow"}
	var b strings.Builder
	if err := EventWriter(&b, true, false)(ev); err != nil || strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("json: %q %v", b.String(), err)
	}
	var back state.Event
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back.Session != "S" || back.Kind != "kill" {
		t.Fatalf("json read back: %+v %v", back, err)
	}
	for verbose, want := range map[bool]string{false: FormatEvent(ev), true: FormatEventVerbose(ev)} {
		b.Reset()
		if err := EventWriter(&b, false, verbose)(ev); err != nil || b.String() != want+"\n" {
			t.Errorf("verbose %v: %q, want %q", verbose, b.String(), want)
		}
	}
}

// Regression: `+up` with two panes whose directories are missing printed
// both problems run together on one line (errors.Join's line break was
// cleaned into a space). Each is on its own line, under the first.
func TestSayPutsEachJoinedProblemOnItsOwnLine(t *testing.T) {
	var b strings.Builder
	Say(&b, errors.Join(errors.New(`pane "SDK": /x does not exist`), errors.New(`pane "API": /y does not exist`)).Error())
	want := "superclaude: pane \"SDK\": /x does not exist\n  pane \"API\": /y does not exist\n"
	if got := b.String(); got != want {
		t.Fatalf("said %q, want %q", got, want)
	}
}
