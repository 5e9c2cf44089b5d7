package main

import (
	"testing"

	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// Some of cmd's tests run the built program with this test binary, started
// again, as its agent (testkit/fakeagent). The supervisor's and the
// fleet's process tests are in apptest/.
func TestMain(m *testing.M) { reexec.Main(m, fakeagent.Roles()) }
