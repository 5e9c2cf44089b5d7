package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeopenai"
)

// environOf reads a live process's environment.
func environOf(pid int) []string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return strings.Split(string(b), "\x00")
}

func hasSuperclaudeVar(env []string) string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "SUPERCLAUDE_") || strings.HasPrefix(kv, "CLAUDE_SUPERVISOR_PID=") {
			return kv
		}
	}
	return ""
}

// waitFile waits until path exists and returns its text.
func (w *world) waitFile(path string) string {
	w.t.Helper()
	var b []byte
	w.until(filepath.Base(path)+" to be written", func() bool {
		var err error
		b, err = os.ReadFile(path)
		return err == nil && len(b) > 0
	})
	return string(b)
}

// A plain codex in another pane is never harmed by superclaude (issue 16):
// it starts Codex's shared background server after a supervised codex
// started, and a second supervised codex starts after the server is up.
// The supervised ones run without it — their tools are theirs, carrying
// the supervisor's mark — the plain one's server and tools carry no
// superclaude variable, and when both supervised codexes have quit and
// been swept, the server still runs and the plain codex still works.
func TestPlainCodexInAnotherPaneIsUnharmed(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	first := tm.pane("pl", "s1", "")
	sup1 := w.codexStart(tm, first)
	w.turn(tm, first, "run: env > s1.env")

	plain := tm.pane("pl", "plain", "")
	// A pane of the user's own: no superclaude variable in its shell.
	tm.send(plain, "unset $(env | sed -n 's/^\\(SUPERCLAUDE_[A-Z_]*\\)=.*/\\1/p'); codex")
	tm.codexReady(plain)
	w.turn(tm, plain, "run: env > plain.env")
	var servers []proc.Info
	w.until("the plain codex's background server", func() bool {
		servers = servers[:0]
		all, _ := proc.List()
		for _, p := range all {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
			if strings.Contains(string(b), "app-server") && slices.Contains(environOf(p.PID), "CODEX_HOME="+w.codexHome) {
				servers = append(servers, p)
			}
		}
		return len(servers) > 0
	})

	second := tm.pane("pl", "s2", "")
	sup2 := w.codexStart(tm, second)
	w.turn(tm, second, "run: env > s2.env")

	for file, sup := range map[string]proc.Identity{"s1.env": sup1, "s2.env": sup2} {
		env := strings.Split(w.waitFile(filepath.Join(w.project, file)), "\n")
		if !slices.Contains(env, "SUPERCLAUDE_SUPERVISOR="+sup.String()) {
			t.Errorf("a supervised codex's tool ran without its supervisor's mark (%s): %q", file, hasSuperclaudeVar(env))
		}
	}
	if kv := hasSuperclaudeVar(strings.Split(w.waitFile(filepath.Join(w.project, "plain.env")), "\n")); kv != "" {
		t.Errorf("the plain codex's tool got superclaude's %s", kv)
	}
	for _, s := range servers {
		if kv := hasSuperclaudeVar(environOf(s.PID)); kv != "" {
			t.Errorf("codex's shared server (pid %d) got superclaude's %s", s.PID, kv)
		}
	}

	for _, pane := range []string{first, second} {
		tm.typeCodex(pane, "/quit")
	}
	w.until("both supervisors to end", func() bool { return !proc.Alive(sup1) && !proc.Alive(sup2) })
	for _, s := range servers {
		if !proc.Alive(s.Identity) {
			t.Errorf("codex's shared server (pid %d) was ended with the supervised codexes", s.PID)
		}
	}
	w.turn(tm, plain, "run: echo still here > plain-after.txt")
	if got := w.waitFile(filepath.Join(w.project, "plain-after.txt")); got != "still here\n" {
		t.Errorf("the plain codex's tool after the sweeps wrote %q", got)
	}
	if screen := tm.capture(plain); strings.Contains(screen, "Reconnecting") {
		t.Errorf("the plain codex lost its server:\n%s", screen)
	}
}

// A process a supervised codex's tool detaches (setsid … &) carries the
// supervisor's mark and is ended when superclaude ends. Codex runs
// without its sandbox here: inside it, its sandbox ends such a process
// itself.
func TestCodexDetachedToolProcessIsSwept(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("dt", "main", "")
	sup := w.codexStart(tm, pane, "--dangerously-bypass-approvals-and-sandbox")
	w.turn(tm, pane, "run: setsid sleep 4711 >/dev/null 2>&1 </dev/null &")
	var left []proc.Info
	w.until("the detached process to run, marked", func() bool {
		left = nil
		for _, p := range leftovers(sup) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline"); strings.Contains(string(b), "4711") {
				left = append(left, p)
			}
		}
		return len(left) > 0
	})
	tm.codexReady(pane)
	tm.typeCodex(pane, "/quit")
	w.until("superclaude to end", func() bool { return !proc.Alive(sup) })
	for _, p := range left {
		if proc.Alive(p.Identity) {
			t.Errorf("the detached process %d outlived superclaude", p.PID)
		}
	}
}

// `codex exec` answers once (issue 16: a failing one ran 6 times, 6 model
// requests): against an API that fails every request with HTTP 500, one
// codex exec runs — every request is on one thread — and superclaude exits
// with its 1; a flag codex does not know is said once.
func TestCodexExecRunsOnce(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("ex", "main", "")
	w.openai.Fallback = func(*fakeopenai.Request) fakeopenai.Reply { return fakeopenai.Reply{Status: 500} }
	out, code := tm.runShell(pane, "superclaude +run --profile codex -- exec 'say hi' </dev/null")
	if code != 1 {
		t.Errorf("superclaude exited %d, want codex exec's 1\n%s", code, out)
	}
	time.Sleep(time.Second)
	threads := map[string]bool{}
	for _, r := range w.openai.Turns() {
		threads[r.ThreadID] = true
	}
	if len(threads) != 1 {
		t.Errorf("codex exec ran %d times (threads %v), want once", len(threads), threads)
	}
	if n := len(w.agentStarts()); n != 0 {
		t.Errorf("a one-shot run went through the supervision tree (%d starts)", n)
	}
	out, code = tm.runShell(pane, "superclaude +run --profile codex -- --no-such-flag")
	if code != 2 || strings.Count(out, "unexpected argument") != 1 {
		t.Errorf("a bad flag: exit %d, want codex's 2 and one error:\n%s", code, out)
	}
	if n := len(w.agentStarts()); n != 1 {
		t.Errorf("codex given a bad flag was started %d times, want once", n)
	}
}

// A SIGTERM someone sends codex — its native process, or the npm launcher
// in front of it, which forwards the signal and dies by it — ends
// superclaude with 143 (issue 16: it was restarted as a crash).
func TestCodexSIGTERMEndsWith143(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	for _, target := range []string{"codex-linux", "bin/codex"} {
		pane := tm.pane("st", strings.ReplaceAll(target, "/", "-"), "")
		sup := w.codexStart(tm, pane)
		var ps []proc.Info
		w.until("codex's "+target+" process", func() bool {
			ps = nil
			for _, p := range agentProcs(sup, target) {
				if b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline"); strings.HasPrefix(string(b), "node") == (target == "bin/codex") {
					ps = append(ps, p)
				}
			}
			return len(ps) > 0
		})
		if err := proc.Signal(ps[0].Identity, syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		w.until("superclaude to end", func() bool { return !proc.Alive(sup) })
		if code, _ := tm.exitAndStty(pane); code != 143 {
			t.Errorf("SIGTERM to %s: superclaude exited %d, want 143", target, code)
		}
	}
	if n := len(w.agentStarts()); n != 2 {
		t.Errorf("codex was started %d times for two runs: a SIGTERM was restarted", n)
	}
}

// statusOf reads +status --json's view of the session supervisor runs.
func (w *world) statusOf(sup proc.Identity) map[string]any {
	w.t.Helper()
	out, err := w.sc("+status", "--json")
	if err != nil {
		w.t.Fatalf("+status: %v\n%s", err, out)
	}
	var views []map[string]any
	if err := json.Unmarshal([]byte(out), &views); err != nil {
		w.t.Fatalf("+status --json: %v\n%s", err, out)
	}
	for _, v := range views {
		if pid, _ := v["pid"].(float64); int(pid) == sup.PID {
			return v
		}
	}
	return nil
}

// +status shows what Codex is doing (issue 16: it showed nothing): busy
// while a turn is under way, idle once it ended.
func TestCodexStatusShowsBusyAndIdle(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("bs", "main", "")
	sup := w.codexStart(tm, pane)
	hold := make(chan struct{})
	w.openai.Push(fakeopenai.Reply{Text: "finally", Hold: hold})
	w.turn(tm, pane, "take your time")
	w.until("+status to show codex busy", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "busy" && v["profile"] == "codex"
	})
	if out, _ := w.sc("+status"); !strings.Contains(out, "codex: busy") {
		t.Errorf("+status's table does not say codex: busy:\n%s", out)
	}
	close(hold)
	tm.waitScreen(pane, "finally")
	w.until("+status to show codex idle", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "idle"
	})
}

// A restart asked for from outside waits for Codex's turn to end (issue
// 16: +session restart killed Codex 19 ms into a reply), then carries on
// the same conversation — nothing saved a context for a fresh start, and
// the fresh agent is not told to read a file nobody wrote.
func TestCodexRestartWaitsForTheTurn(t *testing.T) {
	t.Parallel()
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("rt", "main", "")
	sup := w.codexStart(tm, pane)
	thread := w.turn(tm, pane, "first").ThreadID
	sess := w.mine(sup.PID, "the conversation to be bound", func(st *state.State) bool { return st.SessionID == thread })
	tm.codexReady(pane)

	hold := make(chan struct{})
	w.openai.Push(fakeopenai.Reply{Text: "turn over", Hold: hold})
	w.turn(tm, pane, "a long turn")
	w.until("codex to be busy", func() bool { v := w.statusOf(sup); return v != nil && v["agent"] == "busy" })
	out, err := w.sc("+session", "restart", "--session", sess.Name)
	if err != nil || !strings.Contains(out, "in the middle of a turn") {
		t.Fatalf("+session restart: %v\n%s", err, out)
	}
	time.Sleep(2 * time.Second)
	if n := len(w.agentStarts()); n != 1 {
		t.Fatalf("codex was restarted in the middle of its turn (%d starts)", n)
	}
	close(hold)
	tm.waitScreen(pane, "turn over")
	w.until("the restart after the turn", func() bool { return len(w.agentStarts()) == 2 })
	if restart := w.agentStarts()[1]; !slices.Equal(restart, []string{"--no-daemon", "resume", thread}) {
		t.Errorf("the restart ran codex %q, want it to resume %s", restart, thread)
	}
	tm.codexReady(pane)
	if got := w.turn(tm, pane, "after the restart"); got.ThreadID != thread || strings.Contains(strings.Join(got.UserTexts(), " "), "DEHYDRATED") {
		t.Errorf("after the restart: thread %s (want %s), prompts %q", got.ThreadID, thread, got.UserTexts())
	}
	why, _ := w.sc("+why", sess.Name)
	if !regexp.MustCompile(`waited [0-9.]+ s for the agent to finish its turn`).MatchString(why) {
		t.Errorf("+why does not say the restart waited for the turn:\n%s", why)
	}
}

// EnvExample is the examples/ module's crashresume program, built by make
// e2e: a program outside this module that supervises an agent through the
// public library alone.
const EnvExample = "SUPERCLAUDE_E2E_EXAMPLE"

// The examples/ module's program supervises the real Codex through the
// library alone: it learns the conversation, crashes codex, and the
// restarted codex resumes the same thread — which the fake API sees — and
// its run, recorded through supervise.OpenSessions, shows in +status with
// that conversation.
func TestExampleProgramSupervisesCodexWithCrashResume(t *testing.T) {
	t.Parallel()
	example := cliBinary(t, EnvExample, "examples/crashresume")
	w := newCodexWorld(t)
	tm := w.tmux()
	pane := tm.pane("ex", "main", "")
	out, code := tm.runShell(pane, shellQuote(example)+" -codex codex -sessions "+shellQuote(w.sessions)+" 'hello from a program'")
	if code != 0 || !strings.Contains(out, "resumed conversation") {
		t.Fatalf("crashresume exited %d:\n%s", code, out)
	}
	threads := map[string]bool{}
	for _, r := range w.openai.Turns() {
		threads[r.ThreadID] = true
	}
	if len(threads) != 1 {
		t.Errorf("the program's codex sent its prompt on %d threads (%v), want one", len(threads), threads)
	}
	status, err := w.sc("+status", "--json")
	if err != nil {
		t.Fatalf("+status: %v\n%s", err, status)
	}
	var views []map[string]any
	json.Unmarshal([]byte(status), &views)
	found := false
	for _, v := range views {
		if threads[fmt.Sprint(v["sessionId"])] && v["profile"] == "codex" {
			found = true
		}
	}
	if !found {
		t.Errorf("+status does not list the program's run:\n%s", status)
	}
}
