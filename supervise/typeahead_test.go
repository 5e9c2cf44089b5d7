package supervise

import (
	"testing"
	"time"
)

// A fresh agent is given what was typed for it once it reads keys and,
// where the profile says, is at work or at its prompt — never into a
// dialog of its own, which the person answers first; and past the wait,
// whatever it is, so that a program that never goes raw still gets it.
func TestKeysReadiness(t *testing.T) {
	for _, tc := range []struct {
		name   string
		raw    bool
		says   bool
		status string
		waited time.Duration
		want   int
	}{
		{"still cooked, starting", false, true, "", 200 * time.Millisecond, keysWait},
		{"raw, no status yet", true, true, "", time.Second, keysWait},
		{"raw and busy with its first prompt", true, true, StatusBusy, time.Second, keysReady},
		{"raw and idle at its prompt", true, true, StatusIdle, time.Second, keysReady},
		{"a dialog: the person answers it first", true, true, StatusWaiting, time.Second, keysDialog},
		{"a dialog past the wait: still not into it", true, true, StatusWaiting, time.Hour, keysDialog},
		{"past the wait, cooked: a program that reads lines", false, true, "", typeaheadWait, keysReady},
		{"a profile that does not say: raw a second", true, false, "", time.Second, keysReady},
		{"a profile that does not say: raw at once is too soon", true, false, "", 300 * time.Millisecond, keysWait},
		{"a profile that does not say, never raw: 10 s", false, false, "", 10 * time.Second, keysReady},
	} {
		if got := keysReadiness(tc.raw, tc.says, tc.status, tc.waited); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Keys not passed on are said on the status line — claude clears the
// screen as it starts — for a while after the restart, then no more.
func TestTheStatusLineSaysWhatWasNotPassedOnForAWhile(t *testing.T) {
	s := &Supervisor{}
	if s.currentNotice(time.Now()) != "" {
		t.Fatal("a notice before any")
	}
	s.setNotice(droppedNotice([]string{"Esc", `"1" and Enter`}))
	if got := s.currentNotice(time.Now()); got != `superclaude: keys typed during the restart not passed on: Esc, "1" and Enter (+why says more)` {
		t.Fatalf("notice %q", got)
	}
	if got := s.currentNotice(time.Now().Add(noticeFor + time.Second)); got != "" {
		t.Fatalf("still said after %s: %q", noticeFor, got)
	}
}
