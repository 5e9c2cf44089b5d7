package claude

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
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

// Attack: the subcommand cache was read with os.ReadFile and written with
// os.WriteFile to a fixed ".tmp" name, both following links. A link
// planted at the temporary name (by a neighbour, or a restored backup of
// the state directory) had the next new claude version overwrite its
// target — ~/.bashrc say — with the cache's JSON; a FIFO at the cache's
// name hung every start; a link to /dev/zero filled the memory. The cache
// is read and written only through safefs: nothing planted is followed,
// waited on or read without a bound, and claude is simply asked again.
func TestAttackSubcommandCacheDoesNotFollowWhatIsPlanted(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	os.WriteFile(bin, []byte("#!/bin/sh\nprintf 'Usage: claude\\n\\nCommands:\\n  doctor   Check\\n'\n"), 0o700)
	real, _ := filepath.EvalSymlinks(bin)
	sum := sha256.Sum256([]byte(real))
	name := "claude-help-" + hex.EncodeToString(sum[:8]) + ".json"
	victim := filepath.Join(dir, "bashrc")
	plant := map[string]func(cache string){
		"link at the temporary file": func(cache string) {
			os.Symlink(victim, filepath.Join(cache, name+".tmp"))
		},
		"link at the cache": func(cache string) {
			os.Symlink(victim, filepath.Join(cache, name))
		},
		"FIFO at the cache": func(cache string) {
			syscall.Mkfifo(filepath.Join(cache, name), 0o600)
		},
		"link to /dev/zero at the cache": func(cache string) {
			os.Symlink("/dev/zero", filepath.Join(cache, name))
		},
	}
	for what, planted := range plant {
		t.Run(what, func(t *testing.T) {
			os.WriteFile(victim, []byte("export PATH=keep\n"), 0o600)
			cache := filepath.Join(t.TempDir(), "state")
			os.Mkdir(cache, 0o700)
			planted(cache)
			done := make(chan error, 1)
			var got []string
			go func() {
				var err error
				got, err = Subcommands(bin, cache)
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil || !slices.Contains(got, "doctor") {
					t.Errorf("Subcommands = %q, %v", got, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Subcommands hung on what was planted in its cache")
			}
			if b, _ := os.ReadFile(victim); string(b) != "export PATH=keep\n" {
				t.Errorf("the planted link's target was written: %q", b)
			}
		})
	}
}
