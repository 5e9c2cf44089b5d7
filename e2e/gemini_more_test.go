package e2e

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakegemini"
)

// Gemini CLI in a pane: +status shows it busy during a turn and idle
// after; a SIGTERM to the CLI ends superclaude, not restarted, with the
// CLI's own code: Gemini CLI catches SIGTERM and exits 0.
// (Ctrl-Z is not tested: Gemini CLI reads it as a key, and does not stop,
// when it runs plainly too.)
func TestGeminiStatusAndSIGTERM(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gs", "main", "")
	tm.send(pane, "superclaude +run --profile gemini")
	sup := tm.supervisor(pane)
	tm.waitScreen(pane, "Type your message")

	hold := make(chan struct{})
	w.gemini.Push(fakegemini.Reply{Text: "finally", Hold: hold})
	w.turn(tm, pane, "take your time")
	w.until("+status to show gemini busy", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "busy" && v["profile"] == "gemini"
	})
	close(hold)
	tm.waitScreen(pane, "finally")
	w.until("+status to show gemini idle", func() bool {
		v := w.statusOf(sup)
		return v != nil && v["agent"] == "idle"
	})

	cli := agentProcs(sup, "gemini")
	if len(cli) == 0 {
		t.Fatal("no gemini process")
	}
	if err := proc.Signal(cli[len(cli)-1].Identity, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	w.until("superclaude to end", func() bool { return !proc.Alive(sup) })
	if code, _ := tm.exitAndStty(pane); code != 0 {
		t.Errorf("SIGTERM to gemini: superclaude exited %d, want gemini's own 0", code)
	}
	if n := len(w.agentStarts()); n != 1 {
		t.Errorf("gemini was started %d times, want once", n)
	}
}

// Gemini CLI's first prompt on the command line is not sent again when a
// crash restarts it: the restart resumes the conversation the prompt went
// to.
func TestGeminiRestartDoesNotReplayTheFirstPrompt(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gp", "main", "")
	prompt := "say the word once"
	tm.send(pane, "superclaude +run --profile gemini -- "+shellQuote(prompt))
	sup := tm.supervisor(pane)
	if _, ok := w.gemini.WaitAfter(0, wait, func(r *fakegemini.Request) bool {
		return r.Kind == fakegemini.KindTurn && r.LastUserText() == prompt
	}); !ok {
		t.Fatal("the first prompt never reached the API")
	}
	sess := w.mine(sup.PID, "the conversation to be bound", func(st *state.State) bool { return st.SessionID != "" })
	tm.waitScreen(pane, "Type your message")
	time.Sleep(time.Until(sess.State.StartedAt.Add(6 * time.Second))) // past "fails as it starts"
	cli := agentProcs(sup, "gemini")
	proc.Signal(cli[len(cli)-1].Identity, syscall.SIGKILL)
	w.until("gemini to be started again", func() bool { return len(w.agentStarts()) == 2 })
	tm.waitScreen(pane, "Type your message")
	time.Sleep(2 * time.Second) // time for a replayed prompt to reach the API
	sent := 0
	for _, r := range w.gemini.Turns() {
		if r.LastUserText() == prompt {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the first prompt reached the API %d times, want once", sent)
	}
	if restart := w.agentStarts()[1]; slices.Contains(restart, prompt) || !slices.Equal(restart, []string{"--resume", sess.State.SessionID}) {
		t.Errorf("the restart ran gemini %q, want --resume %s", restart, sess.State.SessionID)
	}
}

// geminiStart runs superclaude with the gemini profile in pane (args after
// --), and returns the supervisor once Gemini CLI waits at its prompt.
func (w *geminiWorld) geminiStart(tm *tmuxServer, pane string, args ...string) proc.Identity {
	w.t.Helper()
	sup := tm.runProfile(pane, "gemini", args...)
	tm.waitScreen(pane, "Type your message")
	return sup
}

// quit types /quit into the Gemini CLI that supervisor runs in pane and
// waits for superclaude to end. Gemini CLI draws its command menu as
// /quit is typed, and an Enter that comes while it redraws right after a
// turn is sometimes dropped (one run in two of a test here): while
// /quit still waits in the composer, Enter is pressed again.
func (w *geminiWorld) quit(tm *tmuxServer, pane string, supervisor proc.Identity) {
	w.t.Helper()
	tm.typeGemini(pane, "/quit")
	deadline := time.Now().Add(wait)
	for next := time.Now().Add(3 * time.Second); proc.Alive(supervisor); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			w.t.Fatalf("superclaude did not end after /quit; screen:\n%s", tm.capture(pane))
		}
		if time.Now().After(next) {
			if lineShows(tm.capture(pane), "/quit", geminiComposer...) {
				tm.must("send-keys", "-t", pane, "Enter")
			} else {
				// Taken as a prompt, not the command (the menu not yet
				// drawn: seen once in a loaded CI run, the model
				// answered "/quit"): type it again.
				tm.typeGemini(pane, "/quit")
			}
			next = time.Now().Add(3 * time.Second)
		}
	}
}

// A process a supervised Gemini CLI's shell tool detaches (setsid … &)
// carries the supervisor's mark and is ended when superclaude ends.
func TestGeminiDetachedToolProcessIsSwept(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gd", "main", "")
	sup := w.geminiStart(tm, pane, "--approval-mode", "yolo")
	// The command waits a second after it detaches the process: Gemini
	// CLI reports the background PID, yet in 1 run of 4 under load the
	// process was never seen: most likely the command's process group was
	// ended as the command returned, before setsid(1), forked as a group
	// leader, had left it.
	w.turn(tm, pane, "run: setsid sleep 4712 >/dev/null 2>&1 </dev/null & sleep 1")
	var left []proc.Info
	w.until("the detached process to run, marked", func() bool {
		left = nil
		for _, p := range leftovers(sup) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline"); strings.Contains(string(b), "4712") {
				left = append(left, p)
			}
		}
		return len(left) > 0
	})
	w.until("the turn to end", func() bool { v := w.statusOf(sup); return v != nil && v["agent"] == "idle" })
	w.quit(tm, pane, sup)
	for _, p := range left {
		if proc.Alive(p.Identity) {
			t.Errorf("the detached process %d outlived superclaude", p.PID)
		}
	}
}

// `gemini -p` answers once (issue 16 names it): against an API that fails
// every turn, superclaude runs it once — as many model requests as plain
// `gemini -p` makes, no restart, nothing through the supervision tree —
// and exits with its code.
func TestGeminiPromptModeRunsOnce(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gp1", "main", "")
	w.gemini.Fallback = func(*fakegemini.Request) fakegemini.Reply { return fakegemini.Reply{Status: 400} }
	code, n := w.oneAnswerRunsOnce(tm, pane, "gemini -p 'say hi'", "superclaude +run --profile gemini -- -p 'say hi'", func() int { return len(w.gemini.Turns()) })
	t.Logf("gemini -p against an API that answers 400: exit %d after %d request(s)", code, n)
}

// A restart asked for from outside waits for Gemini CLI's turn to end,
// then resumes the same conversation — nothing saved a context for a
// fresh start, and the agent is not told to read a file nobody wrote.
func TestGeminiRestartWaitsForTheTurn(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	pane := tm.pane("gr", "main", "")
	sup := w.geminiStart(tm, pane)
	w.turn(tm, pane, "first")
	sess := w.mine(sup.PID, "the conversation to be bound", func(st *state.State) bool { return st.SessionID != "" })
	id := sess.State.SessionID
	tm.waitScreen(pane, "Type your message")

	hold := make(chan struct{})
	w.gemini.Push(fakegemini.Reply{Text: "turn over", Hold: hold})
	w.turn(tm, pane, "a long turn")
	w.until("gemini to be busy", func() bool { v := w.statusOf(sup); return v != nil && v["agent"] == "busy" })
	out, err := w.sc("+session", "restart", "--session", sess.Name)
	if err != nil || !strings.Contains(out, "in the middle of a turn") {
		t.Fatalf("+session restart: %v\n%s", err, out)
	}
	// The restart waits on the turn: superclaude has said so, and nothing
	// is restarted while the reply is held.
	if n := len(w.agentStarts()); n != 1 {
		t.Fatalf("gemini was restarted in the middle of its turn (%d starts)", n)
	}
	close(hold)
	tm.waitScreen(pane, "turn over")
	w.until("the restart after the turn", func() bool { return len(w.agentStarts()) == 2 })
	if restart := w.agentStarts()[1]; !slices.Equal(restart, []string{"--resume", id}) {
		t.Errorf("the restart ran gemini %q, want it to resume %s", restart, id)
	}
	tm.waitScreen(pane, "Type your message")
	got := w.turn(tm, pane, "after the restart")
	if !slices.Contains(got.UserTexts(), "first") || strings.Contains(strings.Join(got.UserTexts(), " "), "DEHYDRATED") {
		t.Errorf("after the restart the conversation holds %q", got.UserTexts())
	}
	why, _ := w.sc("+why", sess.Name)
	if !regexp.MustCompile(`waited [0-9.]+ s for the agent to finish its turn`).MatchString(why) {
		t.Errorf("+why does not say the restart waited for the turn:\n%s", why)
	}
}

// A plain gemini in another pane is left alone: its tools carry no
// superclaude variable, and when the supervised gemini has quit and been
// swept, the plain one still runs and still works.
func TestPlainGeminiInAnotherPaneIsLeftAlone(t *testing.T) {
	t.Parallel()
	w := newGeminiWorld(t)
	tm := w.tmux()
	plain := tm.pane("gl", "plain", "")
	tm.send(plain, plainShell+"gemini --approval-mode yolo")
	tm.waitScreen(plain, "Type your message")
	w.turn(tm, plain, "run: env > plain.env")
	supervised := tm.pane("gl", "supervised", "")
	sup := w.geminiStart(tm, supervised, "--approval-mode", "yolo")
	w.turn(tm, supervised, "run: env > supervised.env")
	w.leftAlone(tm, plain, "gemini", sup, func() {
		w.until("the supervised gemini's turn to end", func() bool { v := w.statusOf(sup); return v != nil && v["agent"] == "idle" })
		w.quit(tm, supervised, sup)
	}, func(prompt string) { w.turn(tm, plain, prompt) })
}
