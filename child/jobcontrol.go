package child

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/guard"
)

// Job control (issue 9, item 3). Ctrl-Z under superclaude should do what
// it does under plain claude: claude stops, the shell shows a stopped job
// with a cooked terminal, and `fg` brings claude back in raw mode, redrawn.
//
// Our terminal is raw, so Ctrl-Z is a byte that reaches the agent; the
// agent (not orphaned, thanks to its session leader) stops itself, and the
// leader reports the stop. Then, here: the agent's last output is let
// through, our terminal is put back as we found it, and we stop our own
// process group with SIGTSTP, as the terminal's Ctrl-Z would have. When the
// shell continues us (SIGCONT): raw mode again, SIGCONT to the agent's
// group, and a SIGWINCH (after a size update, in case the window changed
// while we were stopped) so that an agent that only redraws on a resize
// redraws too. Claude Code redraws on SIGCONT itself.
//
// Our own stop needs SIGTSTP's default action, so nothing in the program
// may catch SIGTSTP: once os/signal has caught it, Go's runtime keeps its
// handler even after signal.Reset, and a SIGTSTP nobody is notified of is
// then ignored. So a SIGTSTP sent to superclaude itself (kill -TSTP; the
// terminal cannot send one while raw) stops superclaude alone, as it did
// before, and `fg` continues it with nothing to undo.
//
// When our process group is orphaned (no job-control shell above us, as
// under a supervisor that started us in a session of our own) the kernel
// discards that SIGTSTP; we then carry on after orphanedStopWait, as if
// continued at once.

// orphanedStopWait is how long a stop that the kernel discarded is waited
// for before carrying on.
const orphanedStopWait = 100 * time.Millisecond

// jobControlRunning is set once a terminal does job control; until then a
// stopped agent is not reported (nobody would take the report).
var jobControlRunning atomic.Bool

func startJobControl(t *Terminal) {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	jobControlRunning.Store(true)
	guard.Go(func() {
		for {
			select {
			case a := <-t.stops:
				if a == t.current() {
					t.suspend(cont, a)
				}
			case <-cont:
				// A SIGCONT we were not stopped for: nothing to undo.
			}
		}
	})
}

// agentStopped is the leader's report that a stopped.
func (t *Terminal) agentStopped(a *Agent) {
	if !jobControlRunning.Load() {
		return
	}
	select {
	case t.stops <- a:
	default:
	}
}

// suspend restores the terminal, stops us, and once we are continued puts
// the terminal back in raw mode and continues a.
func (t *Terminal) suspend(cont chan os.Signal, a *Agent) {
	a.flushOutput() // its "suspended" message goes out before we stop
	fd := int(t.in.Fd())
	t.mu.Lock()
	wasRaw := t.saved != nil
	if wasRaw {
		t.cookLocked()
	}
	t.mu.Unlock()

	for len(cont) > 0 {
		<-cont
	}
	unix.Kill(0, syscall.SIGTSTP)
	// Stopped here, with all our threads, until the shell continues us.
	select {
	case <-cont:
	case <-time.After(orphanedStopWait):
	}

	t.mu.Lock()
	// A final Restore while we were stopped (the run ended) leaves the
	// terminal cooked.
	if wasRaw && t.saved != nil {
		// From the background (`bg`) this stops us again with SIGTTOU
		// until `fg`, as for any full-screen program.
		if st, err := term.MakeRaw(fd); err == nil {
			t.saved = st
		}
	}
	t.mu.Unlock()
	a.Resize()
	a.signalGroup(syscall.SIGCONT)
	a.signalGroup(syscall.SIGWINCH)
}
