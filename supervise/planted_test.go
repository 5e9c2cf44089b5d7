package supervise

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// holdFIFO starts a process that holds the FIFO at path open for reading
// and writing (so that an open of it never waits for a writer, and a read
// waits for ever), as a tool of the agent could.
func holdFIFO(t *testing.T, path string) proc.Identity {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `exec 3<>"$1"; echo ready; exec sleep 60`, "sh", path)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	id, err := proc.Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// within fails the test when f has not returned within d.
func returnsWithin(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still waits after %s", what, d)
	}
}

// Attack: a FIFO planted among Codex's rollout files under the rollout's
// name, and held open by a tool of the agent, hung the supervisor's
// reading of the agent's conversation and status for ever (os.Open and a
// read of a FIFO wait for a writer's bytes). A rollout that is no regular
// file is no conversation, and its status is not waited on.
func TestAttackCodexRolloutFIFOHangsNothing(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "sessions", "2026", "11", "25")
	os.MkdirAll(dir, 0o700)
	fifo := filepath.Join(dir, "rollout-2099-01-01T00-00-00-"+idB+".jsonl")
	agent := holdFIFO(t, fifo)
	env := []string{"CODEX_HOME=" + home}
	returnsWithin(t, 5*time.Second, "the conversation's lookup", func() {
		if id, _, _ := codexConversation(Running{Process: agent, Env: env}); id != "" {
			t.Errorf("a FIFO was taken for the conversation %s", id)
		}
	})
	returnsWithin(t, 5*time.Second, "the status", func() {
		if st, err := rolloutStatus(fifo); err == nil {
			t.Errorf("the status of a FIFO: %q, want an error", st)
		}
	})
}

// Attack: a FIFO planted where Gemini CLI keeps its chat files, under the
// name of the agent's conversation (its id is on the agent's command
// line), hung the supervisor's lookup of the conversation for ever: the
// open of a FIFO waits for a writer.
func TestAttackGeminiChatFIFOHangsNothing(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".gemini", "tmp", "project", "chats")
	os.MkdirAll(dir, 0o700)
	fifo := filepath.Join(dir, "session-2099-01-01T00-00-"+idA[:8]+".jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	a := Running{Args: []string{"--session-id", idA}, Env: []string{"GEMINI_CLI_HOME=" + home}}
	returnsWithin(t, 5*time.Second, "the conversation's lookup", func() {
		if id, _, _ := geminiConversation(a); id != "" {
			t.Errorf("a FIFO was taken for the conversation %s", id)
		}
	})
	returnsWithin(t, 5*time.Second, "the status", func() {
		if st, err := chatStatus(fifo); err == nil {
			t.Errorf("the status of a FIFO: %q, want an error", st)
		}
	})
}

// Attack: a rollout file of 512 MiB with no turn event in it (a planted
// one, sparse, held open by a tool of the agent; or a turn whose output
// is that large) had the status read the whole file into memory, its
// window growing to the file's size: a few such files, or one of some
// GiB, took the supervisor's memory. What is read stays bounded.
func TestAttackHugeRolloutIsReadWithinBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout-2099-01-01T00-00-00-"+idB+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"event_msg","payload":{"type":"task_started"}}` + "\n")
	f.Truncate(512 << 20)
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	st, err := rolloutStatus(path)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the status of a 512 MiB rollout allocated %d MiB", grew>>20)
	}
	if err != nil || st != StatusBusy {
		t.Errorf("status %q, %v; want busy (no end of the turn in the last part of the file)", st, err)
	}
}
