// Package apptest runs the superclaude program as people, tmux and Claude
// Code run it — on a real pty, in real tmux panes, as the status-line and
// hook command — with this test binary, started again, as the agent
// (testkit/fakeagent): the supervisor's restarts, kills, job control and
// terminal care, and the fleet's up, down and dashboard. These tests live
// beside cmd, not in supervise or internal/fleet, because they need the
// program that only cmd builds: a library's tests never build the
// application. e2e/ runs the same program against the real Claude Code CLI.
package apptest

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/reexec"
)

func TestMain(m *testing.M) { reexec.Main(m, fakeagent.Roles(), sweepRoles) }

// convID is the conversation id the fake agent of the pane labelled label
// (at most four bytes) binds: of Claude Code's form, a UUID, as the claude
// profile resumes no other. The label is in its first eight digits, which
// +why shows.
func convID(label string) string {
	h := hex.EncodeToString([]byte(label))
	return strings.Repeat("0", 8-len(h)) + h + "-c0c0-4000-8000-c0c0c0c0c0c0"
}
