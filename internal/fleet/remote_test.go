package fleet

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/remote"
)

// +down of a fleet left the shared ssh connection to its hosts running
// for ControlPersist's ten minutes: something of the fleet was left after
// "+down → nothing left on either side". Once a host has no fleet of the
// user's left, its connection is closed (ssh -O exit, with the same
// control options); a host another fleet still runs on keeps it.
func TestDownClosesTheSharedConnectionNoFleetUses(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "ssh")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >>"+calls+"\n"), 0o700)
	control := filepath.Join(dir, "control")
	os.Mkdir(control, 0o700)
	r := &Remote{SSH: &remote.SSH{Program: fake, ControlDir: control}, Hosts: remote.Hosts{File: filepath.Join(dir, remote.HostsFile)}}
	r.Hosts.AddFleet("shared", "/other/fleet.toml")

	r.release([]string{"shared", "alone"})
	b, _ := os.ReadFile(calls)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 || !strings.HasSuffix(lines[0], "-O exit -- alone") || !strings.Contains(lines[0], "ControlPath="+control+"/%C") {
		t.Fatalf("ssh was run as %q; want one -O exit for alone, with the control path", lines)
	}
}

// The ssh client names the host first; a fleet error names it once
// ("on bare: bare: superclaude is not installed there" was said).
func TestAHostIsNamedOnce(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{"bare: superclaude is not installed there", "on bare: superclaude is not installed there"},
		{`window "w": working directory x does not exist`, `on bare: window "w": working directory x does not exist`},
	} {
		if got := onHost("bare", errors.New(tc.err)).Error(); got != tc.want {
			t.Errorf("onHost(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
