package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// testdata/help-2.1.330.txt is `claude --help` of 2.1.330.
func TestParseHelpCommands(t *testing.T) {
	got := ParseHelpCommands(string(sample(t, "help-2.1.330.txt")))
	for _, want := range []string{"agents", "attach", "doctor", "mcp", "plugin", "plugins", "stop", "kill", "update", "upgrade", "setup-token", "ultrareview"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q missing from %q", want, got)
		}
	}
	for _, not := range []string{"Usage", "installation", "terminal", "[options]"} {
		if slices.Contains(got, not) {
			t.Errorf("%q taken for a command", not)
		}
	}
}

// Subcommands asks a claude binary once, then reads its cache until the
// binary changes.
func TestSubcommandsAreAskedOncePerBinary(t *testing.T) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "asked")
	bin := filepath.Join(dir, "claude")
	script := func(cmds string) string {
		return fmt.Sprintf("#!/bin/sh\necho x >> %s\nprintf 'Usage: claude\\n\\nCommands:\\n%s\\n'\n", counter, cmds)
	}
	os.WriteFile(bin, []byte(script(`  doctor   Check\n  newthing [options]   Something new`)), 0o700)
	cache := filepath.Join(dir, "cache")
	for i := 0; i < 3; i++ {
		got, err := Subcommands(bin, cache)
		if err != nil || !slices.Contains(got, "newthing") {
			t.Fatalf("Subcommands = %q, %v", got, err)
		}
	}
	if b, _ := os.ReadFile(counter); len(b) != 2 {
		t.Fatalf("claude --help ran %d times, want once", len(b)/2)
	}
	// A new version of the binary is asked again.
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(bin, []byte(script(`  doctor   Check\n  newer   Newer still`)), 0o700)
	if got, _ := Subcommands(bin, cache); !slices.Contains(got, "newer") {
		t.Fatalf("a changed binary was not asked again: %q", got)
	}
}
