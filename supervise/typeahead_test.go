package supervise

import (
	"io"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/child"
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

// TestADialogWithNobodyThereWakesNothing: while keys were held for a
// fresh agent, its supervisor looked every 100 ms whether the agent was
// ready for them, and a permission dialog held it there for ever: 10
// wakeups a second with nobody at the terminal (issue 22). It looks when
// the agent's status changes or it writes, and at the wait's next step;
// a dialog is left alone until the agent says it does something else,
// and then the held keys are given at once.
func TestADialogWithNobodyThereWakesNothing(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); slave.Close() })
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	tt := child.NewTerminal(slave, slave)
	if err := tt.MakeRaw(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tt.Restore() })
	go io.Copy(io.Discard, master)
	first, err := child.Start(child.Spec{Path: "/bin/sh", Args: []string{"-c", "exit 0"}}, tt)
	if err != nil {
		t.Fatal(err)
	}
	first.Wait()
	master.Write([]byte("fix the tests\r"))
	waitUntil(t, "the keys to be held", func() bool { return len(tt.Held().Submitted) == 1 })

	var status atomic.Value
	status.Store(StatusWaiting)
	p := Profile{Name: "dialog", Status: func(Running) (string, error) { return status.Load().(string), nil }}
	s, err := newSupervisor(Config{Profile: p, Terminal: tt})
	if err != nil {
		t.Fatal(err)
	}
	// An agent that goes raw and shows its dialog.
	second, err := child.Start(child.Spec{Path: "/bin/sh", Args: []string{"-c", "stty raw -echo; echo 'Allow? 1. Yes 2. No'; exec sleep 60"}}, tt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(second.PID(), syscall.SIGKILL); second.Wait() })
	s.mu.Lock()
	s.current = second
	s.mu.Unlock()
	var looks atomic.Int32
	testHookTypeaheadLook = func() { looks.Add(1) }
	defer func() { testHookTypeaheadLook = nil }()
	given := make(chan struct{})
	go func() { s.giveTypeahead(second); close(given) }()

	waitUntil(t, "the agent to go raw", second.ReadsKeys)
	time.Sleep(1500 * time.Millisecond)
	if n := looks.Load(); n > 4 {
		t.Errorf("%d looks in 1.5 s while a dialog waited for nobody", n)
	}
	if !second.HasTypeahead() {
		t.Fatal("the held keys were given into the dialog")
	}
	// The dialog is answered: the agent works.
	status.Store(StatusBusy)
	s.noteStatus(StatusBusy)
	select {
	case <-given:
	case <-time.After(10 * time.Second):
		t.Fatal("the held keys were not given once the agent said it works")
	}
	if second.HasTypeahead() {
		t.Fatal("still held after the dialog")
	}
}

// The wait's steps are looked at when they fall due, once each; a dialog
// has none: only the agent's status ends it.
func TestKeysRecheckIsTheNextStep(t *testing.T) {
	for _, tc := range []struct {
		says   bool
		status string
		waited time.Duration
		want   time.Duration
	}{
		{false, "", 0, time.Second},
		{false, "", time.Second, 10 * time.Second},
		{false, "", 10 * time.Second, 0},
		{true, "", 0, typeaheadWait},
		{true, StatusBusy, time.Second, typeaheadWait},
		{true, StatusWaiting, time.Second, 0},
		{true, "", typeaheadWait, 0},
	} {
		if got := keysRecheck(tc.says, tc.status, tc.waited); got != tc.want {
			t.Errorf("says %v, %q after %s: look again at %s, want %s", tc.says, tc.status, tc.waited, got, tc.want)
		}
		// Nothing changes between a look and the step it names.
		if next := tc.want; next > 0 {
			for _, raw := range []bool{false, true} {
				if keysReadiness(raw, tc.says, tc.status, tc.waited) != keysReadiness(raw, tc.says, tc.status, next-time.Millisecond) {
					t.Errorf("says %v, %q: the answer changes before %s", tc.says, tc.status, next)
				}
			}
		}
	}
}
