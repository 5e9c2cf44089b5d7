package agentside

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// A hook before every tool call asked the supervisor whether its ticks
// could be stored, a round trip of 0.7 ms in a 3.8 ms hook (issue 22),
// though a store fails only on a full disk. It asks only when the
// supervisor's socket carries the mark, and then gets what the status
// line saw.
func TestAHookAsksTheSupervisorOnlyWhenItsTicksCannotBeStored(t *testing.T) {
	dir, err := os.MkdirTemp("", "sc-hook-") // t.TempDir can pass the socket path limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	ln, err := control.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		control.Serve(ctx, ln, func(ctx context.Context, req control.Request, peer control.Peer) control.Response {
			asked.Add(1)
			b, _ := json.Marshal(map[string]any{"storeProblem": "no space left on device", "seenUsage": 0.93})
			return control.Response{OK: true, Data: b}
		})
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })
	me, err := proc.Self()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(envvar.Socket, sock)
	t.Setenv(envvar.Supervisor, me.String())

	if usage, why := storeTrouble(); usage != 0 || why != "" || asked.Load() != 0 {
		t.Fatalf("store fine: %v %q, %d requests; want none", usage, why, asked.Load())
	}
	if err := control.MarkUnsaved(sock, true); err != nil {
		t.Fatal(err)
	}
	if usage, why := storeTrouble(); usage != 0.93 || why != "no space left on device" || asked.Load() != 1 {
		t.Fatalf("store failing: %v %q, %d requests; want what the supervisor saw, in one", usage, why, asked.Load())
	}
}
