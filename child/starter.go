package child

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/superclaude/superclaude/child/internal/leader"
	"github.com/superclaude/superclaude/internal/guard"
)

// Parent-death signals (issue 9, item 2). If the supervisor is killed
// outright (SIGKILL), nothing of it runs to end the agent; the kernel's
// parent-death signal does it on Linux.
//
// Which signals: the agent gets SIGHUP, what a terminal's hangup sends.
// Claude Code takes it as the end of its terminal: it saves the
// conversation (resumable) and exits 129 within about 0.1 s, which SIGKILL
// would not let it do; on a pty the hangup of the master would send it the
// same SIGHUP anyway. Nobody is left to escalate to SIGKILL if it hangs,
// but a later supervisor's start sweeps what carries a dead supervisor's
// marker. The session leader gets SIGKILL: it has nothing to save, and
// its death is itself a hangup of the agent's session.
//
// The Go pitfall (golang/go#27505): the signal fires when the *thread*
// that forked the child exits, not the process. Go threads live on unless
// a goroutine exits while locked to one, so every start runs on one
// goroutine locked to its thread for the life of the program.
const (
	agentDeathSignal  = leader.AgentDeathSignal
	leaderDeathSignal = syscall.SIGKILL
)

type startRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	starterOnce sync.Once
	starts      chan startRequest
)

// owned holds the PIDs of the children whose exit status an Agent waits
// for. A supervisor that reaps orphans (a child subreaper) must leave them
// alone, from the moment they exist: the lock is held across the fork and
// the registration, so a reaper asking Owned in between waits.
var owned = struct {
	sync.RWMutex
	pids map[int]bool
}{pids: map[int]bool{}}

// Owned reports whether pid is a child of ours that an Agent waits for (an
// agent, or an agent's session leader): a reaper of orphans must not take
// its exit status.
func Owned(pid int) bool {
	owned.RLock()
	defer owned.RUnlock()
	return owned.pids[pid]
}

func disown(pid int) {
	owned.Lock()
	delete(owned.pids, pid)
	owned.Unlock()
}

// startCmd starts cmd from the starter thread and registers it as Owned
// until disown.
func startCmd(cmd *exec.Cmd) error {
	starterOnce.Do(func() {
		starts = make(chan startRequest)
		guard.Go(starter)
	})
	req := startRequest{cmd: cmd, done: make(chan error, 1)}
	starts <- req
	return <-req.done
}

// starter never returns and never unlocks its thread: the thread, the
// parent of every process started here, lives as long as the program.
func starter() {
	runtime.LockOSThread()
	for req := range starts {
		owned.Lock()
		err := req.cmd.Start()
		if err == nil {
			owned.pids[req.cmd.Process.Pid] = true
		}
		owned.Unlock()
		req.done <- err
	}
}
