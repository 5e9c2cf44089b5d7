// Package e2e runs the real Claude Code CLI under superclaude, on a pty,
// against a fake Anthropic Messages API served by the test on 127.0.0.1.
// `make e2e` installs the CLI with npm and runs it; without
// $SUPERCLAUDE_E2E_CLAUDE the tests skip and say so.
package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/proc"
	"github.com/superclaude/superclaude/internal/testutil/fakeapi"
	"github.com/superclaude/superclaude/internal/testutil/testbin"
	"github.com/superclaude/superclaude/state"
)

// EnvClaude is the path of the claude executable the tests run.
const EnvClaude = "SUPERCLAUDE_E2E_CLAUDE"

func TestMain(m *testing.M) { testbin.Main(m) }

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
type world struct {
	t                      *testing.T
	root, config, project  string
	sessions, state, tmp   string
	api                    *fakeapi.Server
	env                    []string
	superclaude, claudeBin string
}

const apiKey = "sk-ant-api03-superclaude-e2e-000000000000"

func newWorld(t *testing.T) *world {
	claudeBin := claudeBinary(t)
	root := t.TempDir()
	tmp, err := os.MkdirTemp("", "sc-e2e-") // short: socket paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	w := &world{t: t, root: root, config: filepath.Join(root, "config"), project: filepath.Join(root, "proj"),
		sessions: filepath.Join(root, "proj", "sessions"), state: filepath.Join(root, "state"), tmp: tmp,
		api: fakeapi.Start(), superclaude: testbin.Superclaude(t), claudeBin: claudeBin}
	t.Cleanup(w.api.Close)
	for _, d := range []string{w.config, w.project} {
		os.MkdirAll(d, 0o700)
	}
	// Claude rewrites .claude.json while it runs: write it before.
	w.writeJSON(filepath.Join(w.config, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true, "hasSeenAutoDefaultNotice": true, "hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses": map[string]any{"approved": []string{apiKey[len(apiKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{w.project: map[string]any{"hasTrustDialogAccepted": true}},
	})
	w.writeJSON(filepath.Join(w.config, "settings.json"), map[string]any{
		"permissions": map[string]any{"defaultMode": "default", "allow": []string{"Bash"}},
	})
	w.env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + root, "TERM=xterm-256color", "LANG=C.UTF-8",
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
		"SUPERCLAUDE_AGENT=" + claudeBin,
		"SUPERCLAUDE_SESSIONS_DIR=" + w.sessions,
		"SUPERCLAUDE_STATE_DIR=" + w.state,
	}
	return w
}

// dump logs what a failed test needs to be understood: the requests the
// fake API saw, the event log and the supervisor's log.
func (w *world) dump() {
	for _, r := range w.api.Requests() {
		line := fmt.Sprintf("api #%d %s %s session=%s", r.Seq, r.Kind, r.Path, r.SessionID)
		if tr, ok := r.LastToolResult(); ok {
			line += fmt.Sprintf(" tool_result(err=%v)=%.200q", tr.IsError, tr.Text)
		}
		w.t.Log(line)
	}
	b, _ := os.ReadFile(filepath.Join(w.sessions, state.EventsFile))
	w.t.Logf("events:\n%s", b)
	b, _ = os.ReadFile(filepath.Join(w.state, "superclaude.log"))
	w.t.Logf("supervisor log:\n%s", b)
}

func (w *world) writeJSON(path string, v any) {
	b, _ := json.Marshal(v)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) start(args ...string) *testbin.PTY {
	cmd := exec.Command(w.superclaude, args...)
	cmd.Dir = w.project
	cmd.Env = w.env
	return testbin.StartPTY(w.t, cmd)
}

// waitState polls the session owned by supervisor until ok says yes.
func (w *world) waitState(supervisor int, what string, ok func(*state.State) bool) *state.Session {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if s, err := state.OpenIn(w.sessions, filepath.Join(w.state, "index")); err == nil {
			id, _ := proc.Of(supervisor)
			if sess, err := s.FindByOwner(id); err == nil && ok(sess.State) {
				return sess
			}
		}
		if time.Now().After(deadline) {
			w.dump()
			w.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeLine types a prompt as a person does: the text, a pause, Enter (text
// and Enter in one write would be a paste).
func typeLine(p *testbin.PTY, text string) {
	p.Master.Write([]byte(text))
	time.Sleep(300 * time.Millisecond)
	p.Master.Write([]byte("\r"))
}

func usage(tokens int) fakeapi.Usage { return fakeapi.Usage{InputTokens: tokens, OutputTokens: 20} }

// TestOverflowRestartEndToEnd: the status line binds the session; usage
// driven past the threshold by the fake API's replies blocks the next tool
// call; the fake model runs `superclaude +session restart` through the Bash
// tool; a fresh claude starts with the continuation prompt and no --resume,
// and its activate clears overflowed and killRequested.
func TestOverflowRestartEndToEnd(t *testing.T) {
	w := newWorld(t)
	p := w.start()
	sup := p.Cmd.Process.Pid

	// 1. The status line binds the conversation to the session.
	sess := w.waitState(sup, "the first status line to bind a sessionId", func(st *state.State) bool { return st.SessionID != "" })
	name := sess.Name
	time.Sleep(500 * time.Millisecond)

	// 2. A turn whose replies report 160k of 200k tokens: 80 %.
	w.api.Push(fakeapi.Bash("echo one", "step one").WithUsage(usage(160_000)), fakeapi.Text("one done").WithUsage(usage(160_000)))
	typeLine(p, "do step one")
	sess = w.waitState(sup, "contextUsage past the threshold", func(st *state.State) bool { return st.ContextUsage >= 0.76 })
	first := sess.State.SessionID
	if ids := w.api.SessionIDs(); len(ids) == 0 || ids[0] != first {
		t.Fatalf("bound sessionId %q, the API saw %q", first, ids)
	}

	// 3. The next tool call is blocked; the model then restarts.
	restartCmd := w.superclaude + " +session restart"
	w.api.Push(
		fakeapi.Bash("echo two", "step two").WithUsage(usage(161_000)),
		fakeapi.Bash(restartCmd, "dehydrated; restart").WithUsage(usage(161_000)),
	)
	isContinuation := func(r *fakeapi.Request) bool {
		return strings.Contains(strings.Join(r.UserTexts(), "\n"), "<command-name>/superclaude:session</command-name>")
	}
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash(w.superclaude+" +session activate "+name, "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	typeLine(p, "do step two")

	blocked, ok := w.api.WaitFor(30*time.Second, func(r *fakeapi.Request) bool {
		tr, ok := r.LastToolResult()
		return ok && tr.IsError && strings.Contains(tr.Text, "CONTEXT OVERFLOW")
	})
	if !ok {
		t.Fatal("the tool call past the threshold was not blocked")
	}
	if tr, _ := blocked.LastToolResult(); !strings.Contains(tr.Text, "/superclaude:session dehydrate restart") {
		t.Fatalf("the block does not say what to do: %q", tr.Text)
	}

	// 4. A fresh claude, a new conversation, started with the
	// continuation prompt.
	cont, ok := w.api.WaitFor(60*time.Second, func(r *fakeapi.Request) bool { return r.Kind == fakeapi.KindTurn && isContinuation(r) })
	if !ok {
		t.Fatalf("no continuation turn reached the API; screen:\n%s", p.Output())
	}
	if cont.SessionID == first {
		t.Fatal("the continuation ran in the overflowed conversation (resumed)")
	}
	text := strings.Join(cont.UserTexts(), "\n")
	if !strings.Contains(text, "continue --session "+name) {
		t.Fatalf("continuation arguments missing: %q", text)
	}
	starts := agentStarts(t, w.sessions)
	if len(starts) < 2 {
		t.Fatalf("agent starts: %v", starts)
	}
	second := starts[1]
	if !slices.Contains(second, claude.ContinuePrompt(name, "", "")) || slices.Contains(second, "--resume") {
		t.Fatalf("second start args %q: want the continuation prompt and no --resume", second)
	}

	// 5. /superclaude:session continue activated the session.
	w.waitState(sup, "activate to clear overflowed and killRequested", func(st *state.State) bool {
		return !st.Overflowed && !st.KillRequested && st.Lifecycle == state.Active && st.RestartPrompt == ""
	})
	w.waitState(sup, "the new conversation to be bound", func(st *state.State) bool {
		return st.SessionID == cont.SessionID
	})

	typeLine(p, "/exit")
	if code := p.Wait(t, 20*time.Second); code != 0 {
		t.Fatalf("superclaude exited %d, want claude's 0", code)
	}
}

// agentStarts reads the supervisor's agent-start events: each start's
// arguments.
func agentStarts(t *testing.T, sessions string) [][]string {
	t.Helper()
	s, err := state.Open(sessions)
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := s.Events("")
	var out [][]string
	for _, ev := range evs {
		if ev.Kind != "agent-start" {
			continue
		}
		var args []string
		raw, _ := json.Marshal(ev.Detail["args"])
		json.Unmarshal(raw, &args)
		out = append(out, args)
	}
	return out
}
