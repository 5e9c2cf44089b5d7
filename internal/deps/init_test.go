package deps

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// touchesTerminalAtInit names the packages known to reach the terminal (or
// run a program) when they are initialised, before main: linked into
// cmd/superclaude, each would do it in every process — the wrapper that
// starts claude, the status line, every hook.
var touchesTerminalAtInit = map[string]string{
	"github.com/charmbracelet/bubbletea": "its init() asks the terminal for its background colour " +
		"(OSC 11, then DSR 6) and waits up to 5 s for the answer",
	"charm.land/lipgloss/v2": "its package variable Writer detects the colour profile of stdout: " +
		"it reads terminfo and, under tmux, runs `tmux info`",
}

// initOffenders returns, sorted, what each of deps in the table does at
// init.
func initOffenders(deps []string) []string {
	var bad []string
	for _, d := range deps {
		if why, ok := touchesTerminalAtInit[d]; ok {
			bad = append(bad, d+": "+why)
		}
	}
	sort.Strings(bad)
	return bad
}

// TestNothingLinkedTouchesTheTerminalAtInit: superclaude links the
// dashboard, and bubbletea v1's init() made every superclaude process
// query the user's terminal and wait for the answer. No package known to
// do such a thing at init may be linked into the binary (the process
// tests in cmd/superclaude/apptest/termquery_test.go check the behaviour itself).
func TestNothingLinkedTouchesTheTerminalAtInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/cmd/superclaude").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list found only %d packages linked into superclaude", len(deps))
	}
	for _, msg := range initOffenders(deps) {
		t.Errorf("cmd/superclaude links %s", msg)
	}
}

// TestInitOffendersAreFound runs the check on a made-up list: a table or
// a check that let everything through would fail here.
func TestInitOffendersAreFound(t *testing.T) {
	got := initOffenders([]string{"fmt", "charm.land/lipgloss/v2", "charm.land/bubbletea/v2", "github.com/charmbracelet/bubbletea"})
	if len(got) != 2 || !strings.HasPrefix(got[0], "charm.land/lipgloss/v2: ") ||
		!strings.HasPrefix(got[1], "github.com/charmbracelet/bubbletea: its init()") {
		t.Fatalf("got %q", got)
	}
}
