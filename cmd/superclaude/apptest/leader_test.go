package apptest

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// TestTheLeaderComesBeforeTheHeavyInitialisers: the session leader of
// agents on a pty (child/internal/leader) is this program started again,
// and a leader that ran the whole program's initialisers — cobra, the
// state store, net — paid for them at its start (issue 22). It runs from
// its package's init, which comes first as long as that package imports
// little. (Moved here from child/internal/leader, whose tests no longer
// build the program; "2" is the leader protocol's version, leader.Version,
// which a package outside child cannot name: a new version fails this test
// with the leader's complaint. The command it is given is framed as the
// protocol says: an 8-byte big-endian length, then the command; it comes
// without the terminal it needs, which the leader says, and waits for the
// next, until its socket ends.)
func TestTheLeaderComesBeforeTheHeavyInitialisers(t *testing.T) {
	bin := testbin.Superclaude(t)
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	syscall.CloseOnExec(fds[0]) // else the leader holds our end too, and never sees its end
	ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
	cmd := exec.Command(bin)
	cmd.Env = []string{envvar.PTYLeader + "=2", "GODEBUG=inittrace=1"}
	cmd.ExtraFiles = []*os.File{theirs}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	spec := "/bin/true\x00\x000\x00" // path, directory, no arguments, no environment
	ours.Write([]byte{0, 0, 0, 0, 0, 0, 0, byte(len(spec))})
	ours.Write([]byte(spec))
	line := make([]byte, 256)
	n, _ := ours.Read(line)
	ours.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the leader did not end at its socket's end: %v (stderr: %s)", err, stderr.String())
	}
	if report := string(line[:n]); !strings.HasPrefix(report, "error 1 reading the agent's command: no terminal") {
		t.Fatalf("the leader reported %q, want its complaint about the missing terminal (stderr: %s)", report, stderr.String())
	}
	trace := stderr.String()
	if !strings.Contains(trace, "init os @") {
		t.Fatalf("inittrace has no line for os:\n%s", trace)
	}
	for _, p := range []string{"github.com/spf13/cobra", "github.com/superclaude/superclaude/state", "net"} {
		if strings.Contains(trace, "init "+p+" @") {
			t.Errorf("%s initialised before the leader ran:\n%s", p, trace)
		}
	}
}
