package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unwritable makes dir refuse every new file, as a full disk does: an
// immutable directory for root (who writes anywhere else), a read-only
// one for anyone else. The store fails where ENOSPC fails it.
func unwritable(t *testing.T, dir string) {
	t.Helper()
	if os.Getuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Fatalf("chattr +i %s: %v %s (the test needs a file system with immutable files)", dir, err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
		return
	}
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
}

// writable undoes unwritable.
func writable(dir string) {
	if os.Getuid() == 0 {
		exec.Command("chattr", "-i", dir).Run()
		return
	}
	os.Chmod(dir, 0o700)
}

// Attack 6 of issue 21: on a full disk the status line showed ctx 95 % in
// red, but the tick could not be stored, so PreToolUse — which reads the
// stored usage — allowed every tool; PreCompact still blocked compaction
// while the restart it relies on failed, so claude sat at "Context limit
// reached"; and nobody was told. The guard decides from what the status
// line saw, the status line says the session cannot be saved, and
// PreCompact blocks only when the restart can happen.
func TestFullDiskDoesNotOpenTheOverflowGuard(t *testing.T) {
	h := newHarness(t)
	p := h.start()
	p.Expect(t, 0, "FAKE-AGENT READY", timeout)
	sess := h.session(p.Cmd.Process.Pid)
	agentEnv := h.events("start")[0].Env
	run := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(h.bin, args...)
		cmd.Dir, cmd.Stdin = h.dir, strings.NewReader(stdin)
		cmd.Env = append([]string{}, h.env...)
		for k, v := range agentEnv {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var out strings.Builder
		cmd.Stdout = &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return out.String(), code
	}
	tick, err := os.ReadFile(filepath.Join("..", "..", "..", "internal", "claude", "testdata", "statusline-after-turn-175k.json"))
	if err != nil {
		t.Fatal(err)
	}
	at := func(pct string) string {
		return strings.Replace(string(tick), `"used_percentage":18`, `"used_percentage":`+pct, 1)
	}
	if line, _ := run(at("18"), "+statusline"); !strings.Contains(line, "18%") {
		t.Fatalf("the first tick: %q", line)
	}
	unwritable(t, sess.Dir)
	line, _ := run(at("95"), "+statusline")
	if !strings.Contains(line, "95%") || !strings.Contains(line, "cannot save") {
		t.Errorf("the status line on a full disk: %q; want the usage and that the session cannot be saved", line)
	}
	bash := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make build"},"transcript_path":"/x/t.jsonl"}`
	if out, code := run(bash, "+hook", "pre-tool-use"); code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("PreToolUse at 95%% on a full disk: exit %d, %q; want the tool denied", code, out)
	}
	compact := `{"hook_event_name":"PreCompact","trigger":"auto","transcript_path":"/x/t.jsonl"}`
	out, code := run(compact, "+hook", "pre-compact")
	if code == 2 {
		t.Errorf("PreCompact blocked the compaction while the restart it relies on cannot happen")
	}
	if !strings.Contains(out, "systemMessage") {
		t.Errorf("PreCompact said nothing to the user: %q", out)
	}
	_ = time.Second
}
