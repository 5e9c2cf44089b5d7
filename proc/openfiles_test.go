package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestOpenFilesNamesAnotherProcesssFile: a child that holds a file open
// (a shell reading from it) lists that file; a file it does not hold is
// not listed.
func TestOpenFilesNamesAnotherProcesssFile(t *testing.T) {
	dir := t.TempDir()
	held := filepath.Join(dir, "held.jsonl")
	other := filepath.Join(dir, "other.jsonl")
	for _, f := range []string{held, other} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sh", "-c", "exec 7<\"$1\"; echo ready; exec sleep 30", "sh", held)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	files, err := OpenFiles(id)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(held)
	if !slices.Contains(files, real) {
		t.Errorf("open files %q lack %s", files, real)
	}
	if realOther, _ := filepath.EvalSymlinks(other); slices.Contains(files, realOther) {
		t.Errorf("open files %q hold %s, which the process never opened", files, realOther)
	}
	// A PID that changed hands is refused.
	stale := id
	stale.Start++
	if _, err := OpenFiles(stale); err == nil {
		t.Error("OpenFiles answered for an identity whose start time is not the process's")
	}
}
