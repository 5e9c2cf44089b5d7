package supervise

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/alarm"
	"github.com/superclaude/superclaude/state"
)

// timerLog records what the waiting supervisor does with its one timer
// (newWaitTimer): how often it was set or stopped, and when it is due.
type timerLog struct {
	mu    sync.Mutex
	calls int
	due   time.Time // zero: not set
}

func (l *timerLog) seen() (int, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls, l.due
}

type loggedTimer struct {
	*alarm.Alarm
	log *timerLog
}

func (t loggedTimer) Set(d time.Duration) {
	t.log.mu.Lock()
	t.log.calls++
	t.log.due = time.Now().Add(d)
	t.log.mu.Unlock()
	t.Alarm.Set(d)
}

func (t loggedTimer) Stop() {
	t.log.mu.Lock()
	t.log.calls++
	t.log.due = time.Time{}
	t.log.mu.Unlock()
	t.Alarm.Stop()
}

// logTimers makes the waiting supervisors of the test log their timer.
func logTimers(t *testing.T) *timerLog {
	l := &timerLog{}
	was := newWaitTimer
	newWaitTimer = func() waitTimer { return loggedTimer{alarm.New(), l} }
	t.Cleanup(func() { newWaitTimer = was })
	return l
}

// startIdle runs a supervisor of an agent that sleeps, with profile p, a
// session store and env, and waits until its agent runs. A profile's Fresh
// may give the agent arguments: the sleeper is a shell, which takes them
// as its own.
func startIdle(t *testing.T, p Profile, env []string) (*Supervisor, *state.Store) {
	t.Helper()
	store, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rt, err := os.MkdirTemp("", "sc-idle-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	s, err := Start(t.Context(), Config{Profile: p, Command: "/bin/sh", Args: []string{"-c", "exec sleep 60", "sh"}, Socket: filepath.Join(rt, "s.sock"),
		Grace: time.Second, Store: store, Env: append(os.Environ(), env...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(true); s.Wait() })
	waitStatus(t, s, "the agent", func(st Status) bool { return st.AgentPID != 0 && st.Session != "" })
	return s, store
}

// settled waits until the timer has been left alone for quiet, and
// returns when it is due then.
func settled(t *testing.T, l *timerLog, quiet time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		n, _ := l.seen()
		time.Sleep(quiet)
		if m, due := l.seen(); m == n && n > 0 {
			return due
		}
	}
	n, due := l.seen()
	t.Fatalf("the waiting supervisor's timer never settled: %d calls, due %v", n, due)
	return time.Time{}
}

// TestAnIdleAgentLeavesNoTimerSet: a supervisor rewrote its session's
// state file every minute, a heartbeat for the views, so a timer was
// always set: a wakeup a minute, with two fsyncs, for every idle agent
// (issue 22). Once its agent has said what it does and nothing changes,
// no timer may be set at all.
func TestAnIdleAgentLeavesNoTimerSet(t *testing.T) {
	l := logTimers(t)
	status := filepath.Join(t.TempDir(), "status.json")
	os.WriteFile(status, []byte("idle"), 0o600)
	p := Profile{Name: "quiet",
		Status: func(Running) (string, error) { return StatusIdle, nil },
		Watch:  func(Running) WatchSet { return WatchSet{Files: []string{status}} }}
	_, store := startIdle(t, p, nil)
	if due := settled(t, l, 2500*time.Millisecond); !due.IsZero() {
		t.Fatalf("an idle agent's supervisor keeps a timer set, due in %s", time.Until(due).Round(time.Second))
	}
	names, _ := store.Names()
	st, err := store.Load(names[0])
	if err != nil || st.AgentStatus != StatusIdle {
		t.Fatalf("the agent's status was not recorded: %+v, %v", st, err)
	}
	// A change of its file is looked at, and leaves no timer either.
	os.WriteFile(status, []byte("idle again"), 0o600)
	if due := settled(t, l, 2500*time.Millisecond); !due.IsZero() {
		t.Fatalf("after a change, a timer is left set, due in %s", time.Until(due))
	}
}

// TestCodexAndGeminiAreNotPolled: only Claude Code's profile named the
// file to watch, so a Codex or a Gemini CLI was read once a second for
// its whole run (issue 22). They name theirs now; an idle one is looked
// at only when its files change — for Codex, at the next midnight too,
// when the directory of the day moves.
func TestCodexAndGeminiAreNotPolled(t *testing.T) {
	for _, p := range []Profile{Codex, Gemini} {
		t.Run(p.Name, func(t *testing.T) {
			l := logTimers(t)
			home := t.TempDir()
			// The sleeper stands for the CLI: its Status, Conversation
			// and Watch, not its command line.
			like := Profile{Name: p.Name + "-like", Status: p.Status, Conversation: p.Conversation, Watch: p.Watch}
			startIdle(t, like, []string{"CODEX_HOME=" + home, "GEMINI_CLI_HOME=" + home})
			due := settled(t, l, 2500*time.Millisecond)
			if !due.IsZero() && time.Until(due) < time.Minute && !nearMidnight(time.Now()) {
				t.Fatalf("an idle %s's supervisor looks again in %s", p.Name, time.Until(due).Round(time.Millisecond))
			}
		})
	}
}

// nearMidnight reports whether a midnight, local or UTC, is within a
// minute of t: Codex's watch moves then.
func nearMidnight(t time.Time) bool {
	for _, u := range []time.Time{t.Local(), t.UTC()} {
		next := time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, u.Location())
		if next.Sub(u) < time.Minute {
			return true
		}
	}
	return false
}

// A Gemini CLI makes its project's directory, its chats directory and its
// chat file as it starts, none of which the supervisor can name before:
// the watch follows them down and the conversation is learned at once,
// with no poll to find it.
func TestGeminiChatIsLearnedAsItIsWritten(t *testing.T) {
	home := t.TempDir()
	id := "65a8abb5-a6e1-49bb-a468-cee473bf69c2"
	like := Profile{Name: "gemini-like", Status: Gemini.Status, Conversation: Gemini.Conversation, Watch: Gemini.Watch,
		Fresh: func(args []string) []string { return append(args, "--session-id", id) }}
	s, _ := startIdle(t, like, []string{"GEMINI_CLI_HOME=" + home})
	time.Sleep(300 * time.Millisecond) // its first look is done
	chats := filepath.Join(home, ".gemini", "tmp", "proj", "chats")
	for _, d := range []string{filepath.Join(home, ".gemini"), filepath.Dir(filepath.Dir(chats)), filepath.Dir(chats), chats} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	chatFile(t, home, "proj", "2026-12-01T22-10", id, `{"type":"user","content":"hi"}`)
	waitStatus(t, s, "the conversation learned", func(st Status) bool { return st.Conversation == id })
}
