package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrepareMergesTheUsersSettings(t *testing.T) {
	cwd := t.TempDir()
	config := t.TempDir()
	user := `{"permissions":{"allow":["Bash"]},"statusLine":{"type":"command","command":"my-line --fancy"},
	          "hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-hook"}]}]}}`
	os.WriteFile(filepath.Join(cwd, "mine.json"), []byte(user), 0o600)
	exe := "/opt/super claude/superclaude"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"file", []string{"--model", "opus", "--settings", "mine.json", "hello"}},
		{"inline", []string{"--model", "opus", "--settings=" + user, "hello"}},
		{"two, last wins", []string{"--settings", `{"ignored":true}`, "--model", "opus", "--settings", "mine.json", "hello"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "launch")
			l, err := Prepare(dir, exe, tc.args, cwd, config, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"--settings", l.SettingsFile, "--plugin-dir", l.PluginDir, "--model", "opus", "hello"}
			if fmt.Sprint(l.Args) != fmt.Sprint(want) {
				t.Fatalf("args %q, want %q", l.Args, want)
			}
			if l.UserStatusLine != "my-line --fancy" {
				t.Fatalf("user status line %q", l.UserStatusLine)
			}
			var got map[string]any
			b, _ := os.ReadFile(l.SettingsFile)
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if _, ok := got["ignored"]; ok {
				t.Fatal("an earlier --settings, which claude ignores, was merged")
			}
			if got["permissions"] == nil {
				t.Fatal("the user's other keys were dropped")
			}
			sl := got["statusLine"].(map[string]any)["command"]
			if sl != `'/opt/super claude/superclaude' +statusline` {
				t.Fatalf("status line %q", sl)
			}
			pre := got["hooks"].(map[string]any)["PreToolUse"].([]any)
			if len(pre) != 2 || !strings.Contains(fmt.Sprint(pre[0]), "my-hook") || !strings.Contains(fmt.Sprint(pre[1]), "+hook pre-tool-use") {
				t.Fatalf("PreToolUse hooks %v", pre)
			}
			for _, ev := range []string{"UserPromptSubmit", "PreCompact", "SessionStart"} {
				if got["hooks"].(map[string]any)[ev] == nil {
					t.Fatalf("no %s hook", ev)
				}
			}
			for path, mode := range map[string]os.FileMode{dir: 0o700, l.SettingsFile: 0o600, l.PluginDir: 0o700,
				filepath.Join(l.PluginDir, "commands", "session.md"): 0o600} {
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
					t.Fatalf("%s: %v %v", path, fi.Mode(), err)
				}
			}
			md, _ := os.ReadFile(filepath.Join(l.PluginDir, "commands", "session.md"))
			if !strings.Contains(string(md), `'/opt/super claude/superclaude' +session restart`) || strings.Contains(string(md), "{{") {
				t.Fatalf("command text not filled in:\n%s", md)
			}
			if _, err := os.Stat(filepath.Join(l.PluginDir, ".claude-plugin", "plugin.json")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestPrepareFindsTheUsersOwnStatusLine(t *testing.T) {
	cwd, config := t.TempDir(), t.TempDir()
	write := func(path, cmd string) {
		os.MkdirAll(filepath.Dir(path), 0o700)
		os.WriteFile(path, []byte(`{"statusLine":{"type":"command","command":"`+cmd+`"}}`), 0o600)
	}
	dir := t.TempDir()
	if l, _ := Prepare(dir, "/x/superclaude", nil, cwd, config, nil); l.UserStatusLine != "" {
		t.Fatalf("none configured: %q", l.UserStatusLine)
	}
	write(filepath.Join(config, "settings.json"), "user-line")
	if l, _ := Prepare(dir, "/x/superclaude", nil, cwd, config, nil); l.UserStatusLine != "user-line" {
		t.Fatalf("user settings: %q", l.UserStatusLine)
	}
	write(filepath.Join(cwd, ".claude", "settings.json"), "project-line")
	if l, _ := Prepare(dir, "/x/superclaude", nil, cwd, config, nil); l.UserStatusLine != "project-line" {
		t.Fatalf("project settings: %q", l.UserStatusLine)
	}
	write(filepath.Join(cwd, ".claude", "settings.local.json"), "local-line")
	if l, _ := Prepare(dir, "/x/superclaude", nil, cwd, config, nil); l.UserStatusLine != "local-line" {
		t.Fatalf("local settings: %q", l.UserStatusLine)
	}
}

func TestPrepareRefusesAnUnreadableUserSettings(t *testing.T) {
	_, err := Prepare(t.TempDir(), "/x/superclaude", []string{"--settings", "missing.json"}, t.TempDir(), t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("err = %v", err)
	}
}

// The variables superclaude's callbacks read are pinned in the settings'
// own env (a --settings file's env wins over a repository's): the user's
// own --settings env is kept beside them, and theirs give way to ours.
func TestPreparePinsTheCallbacksVariables(t *testing.T) {
	cwd := t.TempDir()
	own := filepath.Join(cwd, "mine.json")
	os.WriteFile(own, []byte(`{"env":{"MY_VAR":"mine","SUPERCLAUDE_OVERFLOW_THRESHOLD":"1"},"statusLine":{"type":"command","command":"my-line"}}`), 0o600)
	l, err := Prepare(filepath.Join(t.TempDir(), "launch"), "/x/superclaude", []string{"--settings", own}, cwd, t.TempDir(),
		map[string]string{"SUPERCLAUDE_OVERFLOW_THRESHOLD": "0.76", "SESSION_REQUIRED": "1"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(l.SettingsFile)
	var got struct {
		Env map[string]string `json:"env"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"MY_VAR": "mine", "SUPERCLAUDE_OVERFLOW_THRESHOLD": "0.76", "SESSION_REQUIRED": "1", "SUPERCLAUDE_USER_STATUSLINE": "my-line"}
	if len(got.Env) != len(want) {
		t.Fatalf("env %v, want %v", got.Env, want)
	}
	for k, v := range want {
		if got.Env[k] != v {
			t.Errorf("env %s=%q, want %q", k, got.Env[k], v)
		}
	}
}
