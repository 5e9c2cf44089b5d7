package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// runProfile types `superclaude +run --profile profile -- args` into pane's
// shell and returns the supervisor once it runs.
func (s *tmuxServer) runProfile(pane, profile string, args ...string) proc.Identity {
	s.w.t.Helper()
	line := "superclaude +run --profile " + profile
	if len(args) > 0 {
		line += " --"
		for _, a := range args {
			line += " " + shellQuote(a)
		}
	}
	s.send(pane, line)
	return s.supervisor(pane)
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

// plainShell is what a pane of the person's own runs an agent CLI after:
// no superclaude variable in its environment.
const plainShell = "unset $(env | sed -n 's/^\\(SUPERCLAUDE_[A-Z_]*\\)=.*/\\1/p'); "

// leftAlone checks that a plain agent in pane plain is left alone by the
// one supervisor runs. Their tools have written plain.env and
// supervised.env into the project: the supervised one's carries its
// supervisor's mark, the plain one's no superclaude variable. Then the
// supervised agent is ended (end), and every process of the plain pane
// must still run, with no superclaude variable, and its tool still work
// (turn, given a prompt).
func (w *world) leftAlone(tm *tmuxServer, plain, agent string, sup proc.Identity, end func(), turn func(prompt string)) {
	t := w.t
	t.Helper()
	if env := strings.Split(w.waitFile(filepath.Join(w.project, "supervised.env")), "\n"); !slices.Contains(env, "SUPERCLAUDE_SUPERVISOR="+sup.String()) {
		t.Errorf("the supervised %s's tool ran without its supervisor's mark", agent)
	}
	if kv := hasSuperclaudeVar(strings.Split(w.waitFile(filepath.Join(w.project, "plain.env")), "\n")); kv != "" {
		t.Errorf("the plain %s's tool got superclaude's %s", agent, kv)
	}
	shellPID, _ := strconv.Atoi(tm.must("display-message", "-p", "-t", plain, "#{pane_pid}"))
	tree, _ := proc.Tree(shellPID)
	if len(tree) == 0 {
		t.Fatalf("the plain %s runs no process", agent)
	}
	end()
	w.until("the supervisor to end", func() bool { return !proc.Alive(sup) })
	for _, p := range tree {
		if !proc.Alive(p.Identity) {
			t.Errorf("the plain %s's process %d was ended with the supervised one", agent, p.PID)
		}
		if kv := hasSuperclaudeVar(environOf(p.PID)); kv != "" {
			t.Errorf("the plain %s's process %d has superclaude's %s", agent, p.PID, kv)
		}
	}
	after := filepath.Join(w.project, "plain-after.txt")
	turn("run: echo still here > " + after)
	if got := w.waitFile(after); got != "still here\n" {
		t.Errorf("the plain %s's tool after the sweep wrote %q", agent, got)
	}
}

// oneAnswerRunsOnce runs a one-answer command in pane's shell plainly and
// then under superclaude (supervised), against an API the caller made fail
// every turn, and checks that superclaude made as many model requests as
// the plain run (requests counts them so far), exited with its code, and
// sent nothing through the supervision tree. It returns the plain run's
// code and requests.
func (w *world) oneAnswerRunsOnce(tm *tmuxServer, pane, plain, supervised string, requests func() int) (code, n int) {
	t := w.t
	t.Helper()
	plainOut, plainCode := tm.runShell(pane, plain+" </dev/null")
	n = requests()
	if plainCode == 0 || n == 0 {
		t.Fatalf("%s against a failing API: exit %d, %d requests\n%s", plain, plainCode, n, plainOut)
	}
	out, got := tm.runShell(pane, supervised+" </dev/null")
	if got != plainCode {
		t.Errorf("%s exited %d, want %s's own %d\n%s", supervised, got, plain, plainCode, out)
	}
	if again := requests() - n; again != n {
		t.Errorf("%s made %d model requests, %s %d: it ran again", supervised, again, plain, n)
	}
	if starts := len(w.agentStarts()); starts != 0 {
		t.Errorf("a one-answer run went through the supervision tree (%d starts)", starts)
	}
	return plainCode, n
}
