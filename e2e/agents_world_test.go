package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakegemini"
	"github.com/superclaude/superclaude/testkit/fakeopenai"
)

// The paths of the real Codex and Gemini CLIs the tests run: their npm
// launchers, as a user's PATH has them (make e2e installs both).
const (
	EnvCodex  = "SUPERCLAUDE_E2E_CODEX"
	EnvGemini = "SUPERCLAUDE_E2E_GEMINI"
)

func cliBinary(t *testing.T, env, name string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		t.Skipf("the real %s CLI is absent: $%s is not set (run `make e2e`, which installs it with npm)", name, env)
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("the real %s CLI is absent: $%s=%s: %v (run `make e2e`)", name, env, bin, err)
	}
	return bin
}

// codexWorld is a world whose agent is the real Codex CLI, against a fake
// OpenAI Responses API: codex on PATH, its own CODEX_HOME whose config
// names the fake as its provider and trusts the project, and a project
// that is a git repository (codex exec refuses to run outside one).
type codexWorld struct {
	*world
	openai *fakeopenai.Server
	// codexHome is CODEX_HOME; codexAt the launcher.
	codexHome, codexAt string
}

func newCodexWorld(t *testing.T) *codexWorld {
	bin := cliBinary(t, EnvCodex, "Codex")
	w := newWorldWith(t, "")
	c := &codexWorld{world: w, openai: fakeopenai.Start(), codexHome: filepath.Join(w.root, "codex"), codexAt: bin}
	t.Cleanup(c.openai.Close)
	os.MkdirAll(c.codexHome, 0o700)
	os.Symlink(bin, filepath.Join(w.tmp, "bin", "codex"))
	config := `model = "gpt-fake"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "` + c.openai.URL + `/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
# A failed request is not tried again: a test of a failure is over at once.
request_max_retries = 0
stream_max_retries = 0

[projects.` + strconv.Quote(w.project) + `]
trust_level = "trusted"
`
	if err := os.WriteFile(filepath.Join(c.codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	gitInit(t, w)
	w.setEnv("CODEX_HOME="+c.codexHome, "FAKE_OPENAI_KEY=sk-fake-e2e")
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range c.openai.Requests() {
				t.Logf("openai #%d %s %s thread=%s last=%.120q outputs=%.200q", r.Seq, r.Kind, r.Path, r.ThreadID, r.LastUserText(), r.ToolOutputs())
			}
		}
	})
	return c
}

// geminiWorld is a world whose agent is the real Gemini CLI, against a
// fake Gemini API: gemini on PATH, its settings choosing the API key, the
// project a trusted folder.
type geminiWorld struct {
	*world
	gemini   *fakegemini.Server
	geminiAt string
}

func newGeminiWorld(t *testing.T) *geminiWorld {
	bin := cliBinary(t, EnvGemini, "Gemini")
	w := newWorldWith(t, "")
	g := &geminiWorld{world: w, gemini: fakegemini.Start(), geminiAt: bin}
	t.Cleanup(g.gemini.Close)
	os.Symlink(bin, filepath.Join(w.tmp, "bin", "gemini"))
	dir := filepath.Join(w.home, ".gemini")
	os.MkdirAll(dir, 0o700)
	w.writeJSON(filepath.Join(dir, "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	})
	w.writeJSON(filepath.Join(dir, "trustedFolders.json"), map[string]any{w.project: "TRUST_FOLDER"})
	gitInit(t, w)
	w.setEnv("GEMINI_API_KEY=fake-gemini-e2e", "GOOGLE_GEMINI_BASE_URL="+g.gemini.URL)
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range g.gemini.Requests() {
				t.Logf("gemini #%d %s %s last=%.120q outputs=%.200q", r.Seq, r.Kind, r.Path, r.LastUserText(), r.ToolOutputs())
			}
		}
	})
	return g
}

func gitInit(t *testing.T, w *world) {
	t.Helper()
	cmd := exec.Command("git", "init", "-q", w.project)
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// codexReady waits until the Codex TUI in pane waits at its prompt.
func (s *tmuxServer) codexReady(pane string) {
	s.w.t.Helper()
	s.waitScreen(pane, "? for shortcuts")
}

// typeCodex types a prompt into Codex as a person does: once its composer
// is drawn, the text; once the text shows on the composer's line (›),
// Enter.
func (s *tmuxServer) typeCodex(pane, text string) { s.typeInto(pane, "? for shortcuts", text, "›") }

// geminiComposer are the marks Gemini CLI's composer line starts with: >,
// or * when its tools run without asking (--approval-mode yolo).
var geminiComposer = []string{">", "*"}

// typeGemini types a prompt into Gemini CLI the same way.
func (s *tmuxServer) typeGemini(pane, text string) {
	s.typeInto(pane, "Type your message", text, geminiComposer...)
}

func (s *tmuxServer) typeInto(pane, ready, text string, markers ...string) {
	s.w.t.Helper()
	s.waitScreen(pane, ready)
	s.must("send-keys", "-t", pane, "-l", text)
	probe := text
	if len(probe) > 50 {
		probe = probe[:50]
	}
	deadline := time.Now().Add(wait)
	for !lineShows(s.capture(pane), probe, markers...) {
		if time.Now().After(deadline) {
			s.w.t.Fatalf("pane %s: the composer never showed %q; screen:\n%s", pane, probe, s.capture(pane))
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	s.must("send-keys", "-t", pane, "Enter")
}

// lineShows reports whether a line of screen has text right after one of
// markers.
func lineShows(screen, text string, markers ...string) bool {
	for _, line := range strings.Split(screen, "\n") {
		for _, marker := range markers {
			_, after, ok := strings.Cut(line, marker)
			if ok && strings.HasPrefix(strings.TrimLeft(after, " \u00a0"), text) {
				return true
			}
		}
	}
	return false
}

// agentProcs lists the live processes under supervisor whose command line
// (as /proc has it) holds word: the agent's launcher, its native binary.
func agentProcs(supervisor proc.Identity, word string) []proc.Info {
	tree, _ := proc.Tree(supervisor.PID)
	var out []proc.Info
	for _, p := range tree {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), word) {
			out = append(out, p)
		}
	}
	return out
}
