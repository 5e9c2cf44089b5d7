package apptest

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// TestTheLeaderComesBeforeTheHeavyInitialisers: every start and restart of
// an agent on a pty runs a leader (child/internal/leader), and a leader
// that ran the whole program's initialisers — cobra, the state store, net
// — paid for them on every restart (issue 22). It runs from its package's
// init, which comes first as long as that package imports little. (Moved
// here from child/internal/leader, whose tests no longer build the
// program; "1" is the leader protocol's version, leader.Version, which a
// package outside child cannot name: a new version fails this test with
// the leader's complaint.)
func TestTheLeaderComesBeforeTheHeavyInitialisers(t *testing.T) {
	bin := testbin.Superclaude(t)
	status, statusW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	specW.Close() // no command: the leader says so and ends
	cmd := exec.Command(bin)
	cmd.Env = []string{envvar.PTYLeader + "=1", "GODEBUG=inittrace=1"}
	cmd.ExtraFiles = []*os.File{statusW, specR}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	statusW.Close()
	specR.Close()
	report, _ := io.ReadAll(status)
	cmd.Wait()
	if !strings.HasPrefix(string(report), "error 1 reading the agent's command") {
		t.Fatalf("the leader reported %q, want its complaint about the missing command (stderr: %s)", report, stderr.String())
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
