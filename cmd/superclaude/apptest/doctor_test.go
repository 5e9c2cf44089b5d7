package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// Issue 19: an older copy of superclaude may come first on PATH. +doctor
// knows a copy of the program by what it answers to +version, so it names
// it as another superclaude, an older install, and not as another program
// of that name. (Moved here from internal/doctor, whose tests no longer
// build the program.)
func TestDoctorNamesAnOlderCopyThatShadowsThisOne(t *testing.T) {
	bin, err := os.ReadFile(testbin.Superclaude(t))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	local, older := filepath.Join(home, ".local", "bin"), filepath.Join(home, "bin")
	for _, dir := range []string{local, older} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "superclaude"), bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(filepath.Join(local, "superclaude"), "+doctor")
	cmd.Env = []string{"HOME=" + home, "PATH=" + older + ":" + local + ":/usr/bin:/bin", "SHELL=/bin/bash",
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(home, "state"), "XDG_RUNTIME_DIR=" + filepath.Join(home, "run")}
	out, _ := cmd.Output() // exits 1: there is something to fix (no claude)
	if !strings.Contains(string(out), "another superclaude comes first on your PATH: ~/bin/superclaude") ||
		!strings.Contains(string(out), "remove ~/bin/superclaude") {
		t.Fatalf("+doctor with an older copy first on PATH said:\n%s", out)
	}
}
