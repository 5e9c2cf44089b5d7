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
	"testing"

	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/reexec"
)

func TestMain(m *testing.M) { reexec.Main(m, fakeagent.Roles(), sweepRoles) }
