package claudeargs

import (
	"slices"
	"testing"
)

// The command line's grammar is tested through supervise.ScanClaudeArgs,
// the profile that uses it (supervise/claude_test.go); here, what is
// easiest to get wrong without strings.HasPrefix.

// TestADashIsNoOptionalValue: "-" (stdin, for some tools) is not taken as
// the value of an option whose value is optional, as commander does not.
func TestADashIsNoOptionalValue(t *testing.T) {
	inv := Scan([]string{"--debug", "-", "--resume", "-"}, nil)
	if !inv.ChoseConversation || !slices.Equal(inv.Restart, []string{"--debug"}) {
		t.Errorf("Scan: %+v; want --debug kept alone and --resume dropped", inv)
	}
}
