package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/testbin"
)

type runner struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func (r runner) run(stdin string, args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestSessionCommandsAsAProgram(t *testing.T) {
	dir := t.TempDir()
	r := runner{t: t, bin: testbin.Superclaude(t), dir: dir, env: []string{
		"SUPERCLAUDE_SESSIONS_DIR=", // default: ./sessions
		"SUPERCLAUDE_PANE_ID=fleet:company:SDK",
		"CLAUDE_SUPERVISOR_PID=" + strconv.Itoa(os.Getpid()),
		"SUPERCLAUDE_SUPERVISOR=",
		"SUPERCLAUDE_STATE_DIR=" + filepath.Join(dir, "state"),
		"TMUX=",
	}}
	sessDir := filepath.Join(dir, "sessions", "2026_02_07_TOPIC")

	out, errOut, code := r.run("", "+session", "activate", "sessions/2026_02_07_TOPIC", "implement")
	if code != 0 || strings.TrimSpace(out) != sessDir {
		t.Fatalf("activate: %d %q %q", code, out, errOut)
	}
	if out, _, code := r.run("", "+session", "find"); code != 0 || strings.TrimSpace(out) != sessDir {
		t.Fatalf("find: %d %q", code, out)
	}
	r.run("", "+session", "phase", "Phase 2: Build")
	r.run("done it\n", "+session", "deactivate", "--keywords", "a,b")
	out, errOut, code = r.run("", "+session", "show", "--json")
	var shown struct {
		Name  string         `json:"name"`
		State map[string]any `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 {
		t.Fatalf("show --json: %v %q %q", err, out, errOut)
	}
	if shown.Name != "2026_02_07_TOPIC" || shown.State["lifecycle"] != "completed" ||
		shown.State["currentPhase"] != "Phase 2: Build" || shown.State["sessionDescription"] != "done it" ||
		shown.State["fleetPaneId"] != "fleet:company:SDK" || shown.State["pid"] != float64(os.Getpid()) {
		t.Fatalf("state after commands: %+v", shown.State)
	}

	// A wrong type is refused with the field named, exit 1.
	if _, errOut, code := r.run("", "+session", "update", "toolUseWithoutLogsBlockAfter=many"); code != 1 || !strings.Contains(errOut, `"toolUseWithoutLogsBlockAfter"`) {
		t.Fatalf("bad update: %d %q", code, errOut)
	}

	// A corrupt file: find skips it and says so; activate keeps it aside
	// and starts fresh.
	corrupt := []byte(`{"pid": "nope"`)
	os.WriteFile(filepath.Join(sessDir, ".state.json"), corrupt, 0o600)
	if _, errOut, code := r.run("", "+session", "find"); code == 0 || !strings.Contains(errOut, ".state.json") {
		t.Fatalf("find over a corrupt file: %d %q", code, errOut)
	}
	if _, errOut, code := r.run("", "+session", "activate", "2026_02_07_TOPIC", "test"); code != 0 || !strings.Contains(errOut, "kept aside") {
		t.Fatalf("activate over a corrupt file: %d %q", code, errOut)
	}
	kept, _ := filepath.Glob(filepath.Join(sessDir, ".state.json.corrupt-*"))
	if len(kept) != 1 {
		t.Fatalf("kept: %v", kept)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != string(corrupt) {
		t.Fatalf("kept copy = %q", b)
	}

	// list --json sees the session with a live owner (this test process).
	out, _, _ = r.run("", "+session", "list", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0]["ownerAlive"] != true {
		t.Fatalf("list --json: %v %s", err, out)
	}

	// Names cannot leave the sessions directory.
	if _, errOut, code := r.run("", "+session", "activate", "../escape", "x"); code == 0 || !strings.Contains(errOut, "neither in the sessions directory") {
		t.Fatalf("escape: %d %q", code, errOut)
	}
}
