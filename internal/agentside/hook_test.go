package agentside

import (
	"slices"
	"testing"

	"github.com/superclaude/superclaude/internal/claude"
)

// The hooks +hook offers are exactly those superclaude installs in claude's
// settings: a hook added to one and not the other would be refused, or
// never run.
func TestHookNamesAreTheInstalledHooks(t *testing.T) {
	var installed []string
	for _, sub := range claude.HookEvents {
		installed = append(installed, sub)
	}
	slices.Sort(installed)
	names := HookNames()
	slices.Sort(names)
	if !slices.Equal(installed, names) {
		t.Fatalf("+hook offers %q, claude's settings install %q", names, installed)
	}
}
