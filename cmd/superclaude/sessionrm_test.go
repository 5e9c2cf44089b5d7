package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// Issue 19: sessions piled up with no command to remove them. +session rm
// removes one that nothing runs, and never a live one; +session prune
// only lists unless --yes.
func TestSessionRmAndPruneNeverTouchALiveSession(t *testing.T) {
	dir := t.TempDir()
	base := []string{"SUPERCLAUDE_SESSIONS_DIR=", "SUPERCLAUDE_SUPERVISOR=", "TMUX=", "SUPERCLAUDE_PANE_ID=",
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state")}
	bin := testbin.Superclaude(t)
	// "live" is held by this test process (a live owner); "dead" and
	// "idle" by a shell that has exited.
	live := runner{t: t, bin: bin, dir: dir, env: append(base, "CLAUDE_SUPERVISOR_PID="+strconv.Itoa(os.Getpid()))}
	if _, e, code := live.run("", "+session", "activate", "sessions/live"); code != 0 {
		t.Fatal(e)
	}
	for _, name := range []string{"dead", "idle"} {
		// Activated by hand in a shell, which then exits.
		sh := exec.Command("sh", "-c", `"$0" +session activate sessions/"$1" >/dev/null`, bin, name)
		sh.Dir, sh.Env = dir, append(os.Environ(), append(base, "CLAUDE_SUPERVISOR_PID=")...)
		if out, err := sh.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}

	out, errOut, code := live.run("", "+session", "rm", "live")
	if code == 0 || !strings.Contains(errOut, "session live is held by pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("+session rm of a live session: %d %q %q", code, out, errOut)
	}
	out, errOut, code = live.run("", "+session", "rm", "dead")
	if code != 0 || !strings.Contains(out, "removed session dead") {
		t.Fatalf("+session rm dead: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "sessions", "dead")); err == nil {
		t.Fatal("+session rm left the directory")
	}
	if out, _, _ := live.run("", "+why", "dead"); !strings.Contains(out, "the session was removed") {
		t.Errorf("+why of a removed session: %q", out)
	}

	// prune: a dry run by default; --yes removes the idle, never the live.
	out, errOut, code = live.run("", "+session", "prune", "--older-than", "1ms")
	if code != 0 || !strings.Contains(out, "1 session idle for more than 1ms") || !strings.Contains(out, "sessions/idle") ||
		strings.Contains(out, "sessions/live") || !strings.Contains(out, "nothing removed") {
		t.Fatalf("+session prune (dry run): %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "sessions", "idle")); err != nil {
		t.Fatal("the dry run removed a session")
	}
	out, errOut, code = live.run("", "+session", "prune", "--older-than", "1ms", "--yes")
	if code != 0 || !strings.Contains(out, "removed 1 session") {
		t.Fatalf("+session prune --yes: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "sessions", "live")); err != nil {
		t.Fatal("prune removed the live session")
	}
	if _, errOut, code := live.run("", "+session", "prune"); code == 0 || !strings.Contains(errOut, "--older-than") {
		t.Errorf("+session prune without an age: %d %q", code, errOut)
	}
}
