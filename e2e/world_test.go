// Package e2e runs the real Claude Code CLI under superclaude, the way a
// user meets it — typed into a shell in a fresh tmux pane, or on a
// terminal — against a fake Anthropic Messages API served by the test on
// 127.0.0.1. Each test is named after the scenario it shows (S1–S11,
// races R1–R7: docs/glossary.md). `make e2e` installs the
// CLI with npm and runs them; without $SUPERCLAUDE_E2E_CLAUDE they skip
// and say so.
package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/testkit/testbin"
)

// EnvClaude is the path of the claude executable the tests run.
const EnvClaude = "SUPERCLAUDE_E2E_CLAUDE"

func TestMain(m *testing.M) { reexec.Main(m) }

// wait bounds every wait for claude; generous, because the machine CI runs
// on has two cores and the tests run side by side.
const wait = 45 * time.Second

func claudeBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(EnvClaude)
	if bin == "" {
		t.Skip("the real Claude Code CLI is absent: $" + EnvClaude + " is not set (run `make e2e`, which installs it with npm)")
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("the real Claude Code CLI is absent: $%s=%s: %v (run `make e2e`)", EnvClaude, bin, err)
	}
	return bin
}

// world is a throwaway home, claude config and project for one test, and
// the environment that points claude at the fake API and nowhere else.
// superclaude is on its PATH, installed as a user would have it, and claude
// is on it too, so that `superclaude` in a shell runs the real CLI.
type world struct {
	t                     *testing.T
	root, home, config    string
	project, sessions     string
	state, tmp            string
	api                   *fakeapi.Server
	model                 *fakeapi.Obey
	env                   []string
	superclaude, claudeAt string
}

const apiKey = "sk-ant-api03-superclaude-e2e-000000000000"

// newWorld makes a world whose sessions live in the project's own
// sessions/ directory (the seeds' layout).
func newWorld(t *testing.T) *world { return newWorldWith(t, claudeBinary(t)) }

// newWorldWith makes a world with claudeBin installed as claude ("": none,
// for a world of another agent CLI).
func newWorldWith(t *testing.T, claudeBin string) *world {
	root := t.TempDir()
	tmp, err := os.MkdirTemp("", "sc-e2e-") // short: socket paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), config: filepath.Join(root, "config"),
		project: filepath.Join(root, "proj"), sessions: filepath.Join(root, "proj", "sessions"),
		state: filepath.Join(root, "state"), tmp: tmp,
		api: fakeapi.Start(), model: &fakeapi.Obey{}, superclaude: testbin.Superclaude(t), claudeAt: claudeBin}
	w.api.Fallback = w.model.Reply
	t.Cleanup(w.api.Close)
	for _, d := range []string{w.config, w.project, w.home, w.sessions, filepath.Join(tmp, "bin")} {
		os.MkdirAll(d, 0o700)
	}
	// `superclaude` and `claude` on PATH, as installed.
	os.Symlink(w.superclaude, filepath.Join(tmp, "bin", "superclaude"))
	if claudeBin != "" {
		os.Symlink(claudeBin, filepath.Join(tmp, "bin", "claude"))
	}
	w.trust(w.project)
	w.writeJSON(filepath.Join(w.config, "settings.json"), map[string]any{
		"permissions": map[string]any{"defaultMode": "default", "allow": []string{"Bash"}},
	})
	w.env = []string{
		"PATH=" + filepath.Join(tmp, "bin") + ":" + os.Getenv("PATH"), "HOME=" + w.home, "TERM=xterm-256color", "LANG=C.UTF-8",
		"TMPDIR=" + tmp, "XDG_RUNTIME_DIR=" + tmp,
		"CLAUDE_CONFIG_DIR=" + w.config,
		"ANTHROPIC_BASE_URL=" + w.api.URL,
		"ANTHROPIC_API_KEY=" + apiKey,
		// Without all three the CLI reaches for github.com and
		// downloads.claude.ai even with a fake API (lab findings).
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		"DISABLE_AUTOUPDATER=1",
		// A 200k window: 160k tokens is 80 %.
		"CLAUDE_CODE_DISABLE_1M_CONTEXT=1",
		"SUPERCLAUDE_STATE_DIR=" + w.state,
		"SHELL=/bin/bash",
	}
	t.Cleanup(func() {
		if t.Failed() {
			w.dump()
		}
	})
	// Last of all but the directories' removal: end whatever of this
	// world still runs (a claude finishing its exit, a hook), so that it
	// writes nothing into directories being removed. Whether a feature
	// leaves something behind is each test's own assertion.
	t.Cleanup(func() { w.endStragglers() })
	return w
}

// claudeVersion is what `claude --version` prints in the world.
func (w *world) claudeVersion() string {
	w.t.Helper()
	cmd := exec.Command(w.claudeAt, "--version")
	cmd.Env = w.env
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		w.t.Fatalf("claude --version: %v %q", err, out)
	}
	return strings.TrimSpace(string(out))
}

// trust writes claude's global config so that dir is a trusted project
// and no first-run dialog shows. Claude rewrites .claude.json while it
// runs: write it before.
func (w *world) trust(dirs ...string) {
	w.writeJSON(filepath.Join(w.config, ".claude.json"), claudeJSON(dirs...))
}

// claudeJSON is claude's global config (.claude.json) with dirs trusted,
// onboarding done and the test's API key approved.
func claudeJSON(dirs ...string) map[string]any {
	projects := map[string]any{}
	for _, d := range dirs {
		projects[d] = map[string]any{"hasTrustDialogAccepted": true}
	}
	return map[string]any{
		"hasCompletedOnboarding": true, "hasSeenAutoDefaultNotice": true, "hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses": map[string]any{"approved": []string{apiKey[len(apiKey)-20:]}, "rejected": []string{}},
		"projects":              projects,
	}
}

// endStragglers kills the processes whose environment names this world's
// home, and waits for them to go.
func (w *world) endStragglers() {
	left, _ := proc.FindByEnv("HOME", w.home)
	for _, p := range left {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if name, _, _ := strings.Cut(string(cmdline), "\x00"); name != "tmux" && name != "bash" {
			// The private tmux server and its shells are expected to be
			// on their way out; anything else is worth a line.
			w.t.Logf("ending a straggler: pid %d ppid %d %q", p.PID, p.PPID, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
		proc.Signal(p.Identity, syscall.SIGKILL)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, p := range left {
		for proc.Alive(p.Identity) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// setEnv adds or replaces variables of the world's environment.
func (w *world) setEnv(kvs ...string) {
	for _, kv := range kvs {
		k, _, _ := strings.Cut(kv, "=")
		out := w.env[:0]
		for _, e := range w.env {
			if !strings.HasPrefix(e, k+"=") {
				out = append(out, e)
			}
		}
		w.env = append(out, kv)
	}
}

// unsetEnv removes variables from the world's environment.
func (w *world) unsetEnv(keys ...string) {
	for _, k := range keys {
		out := w.env[:0]
		for _, e := range w.env {
			if !strings.HasPrefix(e, k+"=") {
				out = append(out, e)
			}
		}
		w.env = out
	}
}

// dump logs what a failed test needs to be understood: the requests the
// fake API saw, the event log and the supervisor's log.
func (w *world) dump() {
	for _, r := range w.api.Requests() {
		line := fmt.Sprintf("api #%d %s %s session=%s last=%.120q", r.Seq, r.Kind, r.Path, r.SessionID, r.LastUserText())
		if tr, ok := r.LastToolResult(); ok {
			line += fmt.Sprintf(" tool_result(err=%v)=%.200q", tr.IsError, tr.Text)
		}
		w.t.Log(line)
	}
	for _, root := range w.store().Index().Roots() {
		b, _ := os.ReadFile(filepath.Join(root, state.EventsFile))
		w.t.Logf("events of %s:\n%s", root, b)
	}
	b, _ := os.ReadFile(filepath.Join(w.state, "superclaude.log"))
	w.t.Logf("supervisor log:\n%s", b)
}

func (w *world) writeJSON(path string, v any) {
	b, _ := json.Marshal(v)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// store opens the project's sessions through the user's index, the way
// superclaude does.
func (w *world) store() *state.Store {
	s, err := state.OpenIn(w.sessions, filepath.Join(w.state, "index"))
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// start runs superclaude on a terminal of the test's, in the project.
func (w *world) start(args ...string) *testbin.PTY {
	cmd := exec.Command(w.superclaude, args...)
	cmd.Dir = w.project
	cmd.Env = w.env
	return testbin.StartPTY(w.t, cmd)
}

// until polls cond until it says yes.
func (w *world) until(what string, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// session polls the named session (a name in the project's sessions/)
// until ok says yes.
func (w *world) session(name, what string, ok func(*state.State) bool) *state.State {
	w.t.Helper()
	var st *state.State
	w.until(name+": "+what, func() bool {
		var err error
		st, err = w.store().Load(name)
		return err == nil && ok(st)
	})
	return st
}

// mine polls the session supervisor's agent works in (state.Store.Mine)
// until ok says yes.
func (w *world) mine(supervisor int, what string, ok func(*state.State) bool) *state.Session {
	w.t.Helper()
	var sess *state.Session
	w.until(what, func() bool {
		id, err := proc.Of(supervisor)
		if err != nil {
			return false
		}
		sess, err = w.store().Mine(id, "")
		return err == nil && ok(sess.State)
	})
	return sess
}

// events returns every event of kind in the sessions roots the index
// knows and the project's, oldest first.
func (w *world) events(kind string) []state.Event {
	var out []state.Event
	seen := map[string]bool{}
	for _, root := range append(w.store().Index().Roots(), w.sessions) {
		if seen[root] {
			continue
		}
		seen[root] = true
		s, _ := state.Open(root)
		evs, _ := s.Events("")
		for _, ev := range evs {
			if ev.Kind == kind {
				out = append(out, ev)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// agentStarts reads every agent-start event of the sessions roots the
// index knows and the project's: each start's arguments, oldest first.
func (w *world) agentStarts() [][]string {
	evs := w.events("agent-start")
	out := make([][]string, len(evs))
	for i, ev := range evs {
		raw, _ := json.Marshal(ev.Detail["args"])
		json.Unmarshal(raw, &out[i])
	}
	return out
}

// typeLine types a prompt as a person does: the text, a pause, Enter (text
// and Enter in one write would be a paste).
func typeLine(p *testbin.PTY, text string) {
	p.Master.Write([]byte(text))
	time.Sleep(300 * time.Millisecond)
	p.Master.Write([]byte("\r"))
}

func usage(tokens int) fakeapi.Usage { return fakeapi.Usage{InputTokens: tokens, OutputTokens: 20} }

// leftovers lists the live processes that carry supervisor's marker in
// their environment: anything it started and did not end.
func leftovers(supervisor proc.Identity) []proc.Info {
	found, _ := proc.FindByEnv("SUPERCLAUDE_SUPERVISOR", supervisor.String())
	return found
}

// children lists the live children of pid.
func children(pid int) []proc.Info {
	snap, _ := proc.List()
	var out []proc.Info
	for _, p := range snap {
		if p.PPID == pid && !p.Zombie {
			out = append(out, p)
		}
	}
	return out
}
