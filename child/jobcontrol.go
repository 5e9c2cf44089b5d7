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
// SIGTSTP sent to superclaude itself (kill -TSTP) is passed to the agent,
// whose stop then takes the same path.
//
// Our own stop needs SIGTSTP's default action, so this is the only
// handler of SIGTSTP in the program: it lets go of it while it stops.
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
	tstp := make(chan os.Signal, 1)
	cont := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	signal.Notify(cont, syscall.SIGCONT)
	jobControlRunning.Store(true)
	guard.Go(func() {
		for {
			select {
			case <-tstp:
				if a := t.current(); a != nil {
					a.signalGroup(syscall.SIGTSTP)
				} else {
					t.suspend(tstp, cont, nil)
				}
			case a := <-t.stops:
				if a == t.current() {
					t.suspend(tstp, cont, a)
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
// the terminal back in raw mode and continues a (when not nil).
func (t *Terminal) suspend(tstp, cont chan os.Signal, a *Agent) {
	if a != nil {
		a.flushOutput() // its "suspended" message goes out before we stop
	}
	fd := int(t.in.Fd())
	t.mu.Lock()
	wasRaw := t.saved != nil
	if wasRaw {
		term.Restore(fd, t.saved)
	}
	t.mu.Unlock()

	signal.Reset(syscall.SIGTSTP)
	for len(cont) > 0 {
		<-cont
	}
	unix.Kill(0, syscall.SIGTSTP)
	// Stopped here, with all our threads, until the shell continues us.
	select {
	case <-cont:
	case <-time.After(orphanedStopWait):
	}
	signal.Notify(tstp, syscall.SIGTSTP)

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
	if a != nil {
		a.Resize()
		a.signalGroup(syscall.SIGCONT)
		a.signalGroup(syscall.SIGWINCH)
	}
}
