package apptest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDisk makes dir a file system of its own that fill then fills to
// the last byte: a real ENOSPC, on a 1 MiB tmpfs mounted here. Mounting
// needs root (CI runs as root) on Linux; where it cannot be done, the
// test log says why and fill makes dir refuse new files instead
// (unwritable), which fails the store where ENOSPC fails it, with another
// reason.
func fullDisk(t *testing.T, dir string) (fill, free func(), real bool) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Logf("no real full disk here: mounting a tmpfs at %s failed (%v: %s; it needs root on Linux); "+
			"the sessions directory is made to refuse new files instead", dir, err, strings.TrimSpace(string(out)))
		return func() { unwritable(t, dir) }, func() { writable(dir) }, false
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return func() {
		f, err := os.OpenFile(filepath.Join(dir, ".filler"), os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		block := make([]byte, 64<<10)
		for {
			if _, err := f.Write(block); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("filling %s: %v", dir, err)
				}
				break
			}
		}
		// Down to the last byte: what is left of the last block.
		for {
			if _, err := f.Write(block[:1]); err != nil {
				break
			}
		}
	}, func() { os.Remove(filepath.Join(dir, ".filler")) }, true
}

// Attack 6 of issue 21 on a real full disk (ENOSPC, not a read-only
// directory standing in for one), and its "tell the user once" on screen:
// while claude owns the terminal nothing is printed — the status line,
// which claude draws, says the session cannot be saved and why — and once
// the terminal is back superclaude says once, in one line, that the
// session could not be saved, since when and why. Before, the only other
// word of it was a line in the log.
func TestAttackFullDiskIsToldOnceOnScreen(t *testing.T) {
	testFullDisk(t, false)
}

// The same, with room made again before the run ends: the status line
// goes back to normal, and the run's end says from when to when the
// session could not be saved, and +why says it too.
func TestAFullDiskThatIsClearedIsToldWithItsEnd(t *testing.T) {
	testFullDisk(t, true)
}

func testFullDisk(t *testing.T, clear bool) {
	h := newHarness(t)
	fill, free, real := fullDisk(t, h.sessions)
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
	fill()
	reason := "no space left on device"
	if !real {
		reason = "cannot save"
	}
	for _, pct := range []string{"95", "96", "97"} {
		line, _ := run(at(pct), "+statusline")
		if !strings.Contains(line, pct+"%") || !strings.Contains(line, "cannot save") || !strings.Contains(line, reason) {
			t.Errorf("the status line on a full disk: %q; want the usage, that the session cannot be saved, and why (%s)", line, reason)
		}
	}
	bash := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make build"},"transcript_path":"/x/t.jsonl"}`
	if out, code := run(bash, "+hook", "pre-tool-use"); code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("PreToolUse at 97%% on a full disk: exit %d, %q; want the tool denied", code, out)
	}
	if clear {
		free()
		if line, _ := run(at("98"), "+statusline"); !strings.Contains(line, "98%") || strings.Contains(line, "cannot save") {
			t.Errorf("the status line once there is room again: %q", line)
		}
	}
	const told = "could not be saved"
	if strings.Contains(p.Output(), told) {
		t.Fatalf("superclaude printed on the terminal while the agent owned it:\n%s", p.Output())
	}
	from := p.Len()
	p.Type("exit 0\r")
	if code := p.Wait(t, timeout); code != 0 {
		t.Errorf("exit %d", code)
	}
	after := p.Output()[from:]
	if n := strings.Count(after, told); n != 1 {
		t.Fatalf("once the terminal was back superclaude said %d times that the session %s:\n%s", n, told, after)
	}
	if !strings.Contains(after, reason) {
		t.Errorf("the line does not say why (%s):\n%s", reason, after)
	}
	if clear {
		if !strings.Contains(after, " to ") || strings.Contains(after, "make room") {
			t.Errorf("once there was room again, the line says:\n%s\nwant from when to when, and no advice", after)
		}
		why, _ := run("", "+why", sess.Name)
		if !strings.Contains(why, told) {
			t.Errorf("+why does not say the session %s:\n%s", told, why)
		}
	} else if !strings.Contains(after, "make room") {
		t.Errorf("the line does not say what to do:\n%s", after)
	}
}
