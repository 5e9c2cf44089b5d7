package claude

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// testdata/sessions-pid.json is what 2.1.330 writes for pid 18340 started
// at tick 178490.
func TestAgentStatusOfTheRealFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sessions"), 0o700)
	b := sample(t, "sessions-pid.json")
	os.WriteFile(filepath.Join(dir, "sessions", "18340.json"), b, 0o600)
	if got, err := AgentStatus(dir, 18340, 178490); err != nil || got != StatusIdle {
		t.Fatalf("AgentStatus = %q, %v", got, err)
	}
	// A file left by an earlier process with the same pid is not believed.
	if _, err := AgentStatus(dir, 18340, 999); err == nil && runtime.GOOS == "linux" {
		t.Fatal("a stale file was believed")
	}
	busy := strings.Replace(string(b), `"status": "idle"`, `"status": "busy"`, 1)
	os.WriteFile(filepath.Join(dir, "sessions", "18340.json"), []byte(busy), 0o600)
	if got, _ := AgentStatus(dir, 18340, 178490); got != StatusBusy {
		t.Fatalf("busy read as %q", got)
	}
	if _, err := AgentStatus(dir, 1, 0); err == nil {
		t.Fatal("a missing file gave a status")
	}
	// A FIFO in its place does not hang the reader.
	syscall.Mkfifo(filepath.Join(dir, "sessions", "7.json"), 0o600)
	if _, err := AgentStatus(dir, 7, 0); err == nil {
		t.Fatal("a FIFO gave a status")
	}
}

func TestConfigDirOf(t *testing.T) {
	if got := ConfigDirOf([]string{"HOME=/h", "CLAUDE_CONFIG_DIR=/c"}); got != "/c" {
		t.Fatalf("%q", got)
	}
	if got := ConfigDirOf([]string{"HOME=/h"}); got != "/h/.claude" {
		t.Fatalf("%q", got)
	}
}

// A sessions file written as claude starts, with no status in it yet,
// says nothing — it is not a file that cannot be read (which +status
// would show as unknown).
func TestAgentStatusOfAFileWithNoStatusYet(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sessions"), 0o700)
	os.WriteFile(AgentStatusFile(dir, 4242), []byte(`{"pid":4242,"procStart":"7"}`), 0o600)
	if st, err := AgentStatus(dir, 4242, 7); st != "" || err != nil {
		t.Fatalf("no status yet: %q, %v; want nothing said", st, err)
	}
}
