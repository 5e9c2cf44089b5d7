package tmux

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want int
		ok   bool
	}{
		{"tmux 3.3a\n", 303, true},
		{"tmux 3.2", 302, true},
		{"tmux next-3.5", 305, true},
		{"tmux 3.2-rc2", 302, true},
		{"tmux 2.9a", 209, true},
		{"tmux master", 0, false},
		{"", 0, false},
		{"tmux", 0, false},
	} {
		got, ok := ParseVersion(tc.out)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseVersion(%q) = %d %v, want %d %v", tc.out, got, ok, tc.want, tc.ok)
		}
	}
}

// syncBuffer is a bytes.Buffer a copying goroutine writes while the test
// reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Regression, issue 19: a fleet on its own socket could not be attached
// from inside the person's tmux ("this terminal is a client of another tmux
// server"), although the README's own fleet example names a socket. The
// client is now nested, $TMUX cleared so that tmux allows it, and the keys
// that detach it are said on its status line.
func TestAttachFromInsideAnotherServerNestsAClientAndSaysHowToLeave(t *testing.T) {
	outer := privateServer(t)
	fleet := privateServer(t)
	if _, err := fleet.Run("new-session", "-d", "-s", "work", "-x", "80", "-y", "20", "cat"); err != nil {
		t.Fatal(err)
	}
	outerPane, err := outer.Run("display-message", "-p", "-t", "=keep:", "#{pane_id}")
	if err != nil {
		t.Fatal(err)
	}
	// What a process in one of the outer server's panes sees; the client
	// it starts inherits this environment, which tmux would refuse.
	t.Setenv("TMUX", outer.Path+",1,0")
	t.Setenv("TMUX_PANE", outerPane)
	a, err := fleet.AttachFrom(SessionTarget("work"), ThisClient())
	if err != nil {
		t.Fatal(err)
	}
	if a.Cmd == nil || !a.Nested {
		t.Fatalf("AttachFrom another server = %+v, want a nested client to run", a)
	}
	if !strings.Contains(a.Hint, "C-b C-b d") {
		t.Errorf("hint %q does not name the keys (both servers' prefix is C-b)", a.Hint)
	}
	var screen syncBuffer
	f, err := pty.StartWithSize(a.Cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(&screen, f)
	t.Cleanup(func() {
		a.Cmd.Process.Kill()
		a.Cmd.Wait()
		f.Close()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		clients, _ := fleet.Run("list-clients", "-F", "#{client_session}")
		if clients == "work" && strings.Contains(screen.String(), "detaches it") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no client attached to the fleet (clients %q); its screen:\n%q", clients, screen.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Detaching gives the terminal back.
	if _, err := fleet.Run("detach-client", "-s", SessionTarget("work")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the nested client did not end when detached")
	}
}

func TestAttachFromOutsideTmuxAttachesAndFromTheSameServerSwitches(t *testing.T) {
	s := privateServer(t)
	if _, err := s.Run("new-session", "-d", "-s", "work", "cat"); err != nil {
		t.Fatal(err)
	}
	a, err := s.AttachFrom(SessionTarget("work"), Client{})
	if err != nil || a.Cmd == nil || a.Nested || a.Hint != "" {
		t.Fatalf("outside tmux: %+v %v", a, err)
	}
	if got, want := fmt.Sprint(a.Cmd.Args), fmt.Sprint([]string{"tmux", "-S", s.Path, "attach-session", "-t", "=work:"}); got != want {
		t.Errorf("outside tmux runs %s, want %s", got, want)
	}
	for _, kv := range a.Cmd.Env {
		if strings.HasPrefix(kv, "TMUX=") {
			t.Errorf("the client's environment keeps %s", kv)
		}
	}

	// A client of the same server, looking at "keep", is switched.
	attachedClient(t, s, SessionTarget("keep"))
	pane, _ := s.Run("display-message", "-p", "-t", "=keep:", "#{pane_id}")
	a, err = s.AttachFrom(SessionTarget("work"), Client{TMUX: s.Path + ",1,0", Pane: pane})
	if err != nil || a.Cmd != nil {
		t.Fatalf("inside the same server: %+v %v", a, err)
	}
	if got, _ := s.Run("list-clients", "-F", "#{client_session}"); got != "work" {
		t.Fatalf("the client shows %q after the switch, want work", got)
	}
}

// attachedClient attaches a client of s to target on a pty, waits until
// it shows, and ends it with the test.
func attachedClient(t *testing.T, s Server, target string) {
	t.Helper()
	a := s.clientCmd(target, nil)
	f, err := pty.StartWithSize(a, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, f)
	t.Cleanup(func() {
		a.Process.Kill()
		a.Wait()
		f.Close()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if out, _ := s.Run("list-clients", "-F", "#{client_tty}"); out != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the client never attached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
