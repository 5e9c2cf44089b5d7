package apptest

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/watchdog"
)

// sweepRoles holds the role of this test binary run as a superclaude of
// another user on the host (init_linux_test.go): it sweeps what dead
// supervisors left, as every supervisor does at its start, prints the
// report as JSON and exits.
var sweepRoles = reexec.Roles{"sweep": func(string) {
	json.NewEncoder(os.Stdout).Encode(watchdog.SweepPredecessors(context.Background(), time.Second, nil))
}}
