package child

import (
	"bufio"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTheLeaderGivesUpTheTerminalAsTheAgentEnds: the leader that serves
// agents in turn must give up the last agent's terminal before it takes
// the next one's. It gave it up at the next start, through /dev/tty,
// while the supervisor was closing the last pty aside; the hangup of that
// close, half done, let neither through, and about one restart in a
// hundred on a loaded machine ended the supervisor with "taking the
// agent's terminal: operation not permitted". It now gives it up through
// its own descriptor as the agent ends, before it says so: when Wait
// returns, the last pty is nobody's controlling terminal, even while its
// master is still open (held here, as a slow release would).
func TestTheLeaderGivesUpTheTerminalAsTheAgentEnds(t *testing.T) {
	tt, master := userTerminal(t)
	r := bufio.NewReader(master)
	first := startEcho(t, tt, r)
	held := -1
	rc, err := first.pty.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	rc.Control(func(fd uintptr) { held, err = syscall.Dup(int(fd)) })
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(held)
	if sid, err := unix.IoctlGetInt(held, unix.TIOCGSID); err != nil || sid != first.leader.cmd.Process.Pid {
		t.Fatalf("while the agent runs its pty is the session of %d (%v), want the leader's, %d", sid, err, first.leader.cmd.Process.Pid)
	}
	master.Write([]byte("quit\r"))
	first.Wait()
	if sid, err := unix.IoctlGetInt(held, unix.TIOCGSID); err == nil {
		t.Fatalf("the agent has ended, and its pty is still the controlling terminal of session %d", sid)
	}
	second, err := Start(spec("exit=3"), tt)
	if err != nil {
		t.Fatalf("the next agent could not start: %v", err)
	}
	if e := second.Wait(); e.Code != 3 {
		t.Fatalf("the next agent: %+v", e)
	}
}
