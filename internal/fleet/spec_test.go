package fleet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFleet(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fleet.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadResolvesPanes(t *testing.T) {
	path := writeFleet(t, `
name = "work"
agent = "claude"
env = { A = "fleet", B = "fleet" }

[[window]]
name = "company"
dir = "co"

  [[window.pane]]
  label = "SDK"
  dir = "sdk"
  args = ["--model", "opus"]
  env = { B = "pane" }

  [[window.pane]]
  label = "API"
  agent = "codex"
  command = "/opt/codex"
`)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(path)
	w := s.Windows[0]
	if got := s.PaneDir(w, w.Panes[0]); got != filepath.Join(base, "co", "sdk") {
		t.Errorf("pane dir %s", got)
	}
	if got := s.PaneID(w, w.Panes[1]); got != "work:company:API" {
		t.Errorf("pane id %s", got)
	}
	if got := s.SessionsDir(); got != filepath.Join(base, "sessions") {
		t.Errorf("sessions dir %s", got)
	}
	if got := fmt.Sprint(s.PaneCommand("/bin/superclaude", w.Panes[0])); got != "[/bin/superclaude +run --profile claude -- --model opus]" {
		t.Errorf("command %s", got)
	}
	if got := fmt.Sprint(s.PaneCommand("/bin/superclaude", w.Panes[1])); got != "[/bin/superclaude +run --profile codex --agent /opt/codex --]" {
		t.Errorf("command %s", got)
	}
	env := strings.Join(s.PaneEnv(w, w.Panes[0], []string{"X=extra"}), " ")
	for _, want := range []string{"A=fleet", "B=pane", "X=extra", "SUPERCLAUDE_PANE_ID=work:company:SDK", "SUPERCLAUDE_SESSIONS_DIR=" + filepath.Join(base, "sessions")} {
		if !strings.Contains(env, want) {
			t.Errorf("env %s lacks %s", env, want)
		}
	}
}

func TestLoadNamesWhatIsWrong(t *testing.T) {
	for body, want := range map[string]string{
		`name = "work"`: "no [[window]]",
		`name = "a:b"
[[window]]
name = "w"
[[window.pane]]
label = "x"`: `name "a:b"`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
[[window.pane]]
label = "x"`: `label "x" appears twice`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
agnet = "claude"`: `unknown key "window.pane.agnet"`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
agent = "vim"`: `unknown agent "vim"`,
		`name = "work"
[[window]
`: "line ",
	} {
		_, err := Load(writeFleet(t, body))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "fleet.toml") {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}
