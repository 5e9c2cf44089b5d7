package supervise

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

const (
	idA = "01a2135e-91a8-7202-a794-a9a50eb18a9d"
	idB = "01a2135f-0000-7000-8000-000000000001"
)

// holdOpen starts a shell that holds files open, and returns its identity.
func holdOpen(t *testing.T, files ...string) proc.Identity {
	t.Helper()
	script := ""
	for i := range files {
		script += "exec " + string(rune('3'+i)) + "<\"$" + string(rune('1'+i)) + "\"; "
	}
	cmd := exec.Command("sh", append([]string{"-c", script + "echo ready; exec sleep 60", "sh"}, files...)...)
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

func rollout(t *testing.T, home, id string, lines ...string) string {
	t.Helper()
	dir := filepath.Join(home, "sessions", "2026", "11", "25")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "rollout-2026-11-25T15-41-34-"+id+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Codex's conversation is the rollout file its process holds open: a
// rollout another codex writes beside it in the same CODEX_HOME is not
// ours, nor is a file of that name outside the sessions directory.
func TestCodexConversationIsTheRolloutItHolds(t *testing.T) {
	home := t.TempDir()
	meta := `{"type":"session_meta","payload":{}}`
	ours := rollout(t, home, idA, meta)
	theirs := rollout(t, home, idB, meta)
	outside := filepath.Join(t.TempDir(), "rollout-2026-11-25T15-41-34-"+idB+".jsonl")
	os.WriteFile(outside, nil, 0o600)
	holdOpen(t, theirs) // a plain codex in another pane
	env := []string{"CODEX_HOME=" + home}

	none := holdOpen(t, outside)
	if id, _, err := codexConversation(Running{Process: none, Env: env}); err != nil || id != "" {
		t.Errorf("an agent holding no rollout of its CODEX_HOME: %q, %v; want none yet", id, err)
	}
	agent := holdOpen(t, outside, ours)
	id, transcript, err := codexConversation(Running{Process: agent, Env: env})
	if err != nil || id != idA {
		t.Fatalf("conversation %q, %v; want %s", id, err, idA)
	}
	if real, _ := filepath.EvalSymlinks(ours); transcript != real && transcript != ours {
		t.Errorf("transcript %s, want %s", transcript, ours)
	}
	// Two held: the one already known stays.
	both := holdOpen(t, ours, theirs)
	if id, _, _ := codexConversation(Running{Process: both, Env: env, Conversation: idA}); id != idA {
		t.Errorf("with %s known and still held, learned %s", idA, id)
	}
	// A rollout opened but not written yet (the thread is being created)
	// is no conversation yet: it could not be resumed.
	empty := filepath.Join(home, "sessions", "2026", "11", "25", "rollout-2026-11-25T15-41-35-"+idB+".jsonl")
	os.WriteFile(empty, nil, 0o600)
	if id, _, _ := codexConversation(Running{Process: holdOpen(t, empty), Env: env}); id != "" {
		t.Errorf("a rollout with nothing written yet gave conversation %s", id)
	}
	// CODEX_HOME unset: ~/.codex of the agent's HOME.
	if got := codexHome([]string{"HOME=/home/u"}); got != "/home/u/.codex" {
		t.Errorf("codexHome = %s", got)
	}
}

// Busy or idle is the rollout's last turn event; text that merely mentions
// one (escaped inside a JSON string) is not an event.
func TestRolloutStatusIsTheLastTurnEvent(t *testing.T) {
	home := t.TempDir()
	meta := `{"type":"session_meta","payload":{"id":"x"}}`
	started := `{"type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}`
	done := `{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t"}}`
	aborted := `{"type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t"}}`
	quoted := `{"type":"response_item","payload":{"type":"message","content":[{"text":"{\"type\":\"task_started\"}"}]}}`
	big := `{"type":"response_item","payload":{"text":"` + strings.Repeat("x", 200<<10) + `"}}`
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"no turn yet", []string{meta}, StatusIdle},
		{"a turn under way", []string{meta, started}, StatusBusy},
		{"a tool running", []string{meta, started, `{"type":"response_item","payload":{"type":"function_call"}}`}, StatusBusy},
		{"the turn ended", []string{meta, started, done}, StatusIdle},
		{"interrupted", []string{meta, started, aborted}, StatusIdle},
		{"the next turn", []string{meta, started, done, started}, StatusBusy},
		{"a message quoting an event", []string{meta, started, done, quoted}, StatusIdle},
		{"the event far back", []string{meta, started, big}, StatusBusy},
	} {
		if got, err := rolloutStatus(rollout(t, home, idA, tc.lines...)); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if got, err := rolloutStatus(""); err != nil || got != StatusIdle {
		t.Errorf("no rollout yet: %q, %v; want idle (Codex writes it at the first prompt)", got, err)
	}
	if _, err := rolloutStatus(filepath.Join(home, "gone.jsonl")); err == nil {
		t.Error("an unreadable rollout read as a status")
	}
}
