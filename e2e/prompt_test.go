package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// firstTurnOf is the first turn request of conversation id: what the
// fresh claude sent first.
func firstTurnOf(w *world, id string) *fakeapi.Request {
	for _, r := range w.api.Turns() {
		if r.SessionID == id {
			return r
		}
	}
	return nil
}

// freshFirstTurn waits for the continuation of a fresh claude after mark
// and returns that claude's first request; the test fails when none
// comes, or when it ran in the old conversation, old.
func freshFirstTurn(t *testing.T, w *world, tm *tmuxServer, pane string, mark int, old string) *fakeapi.Request {
	t.Helper()
	cont, ok := w.api.WaitAfter(mark, wait, isContinuation)
	if !ok {
		t.Fatalf("no fresh claude continued; screen:\n%s", tm.capture(pane))
	}
	if cont.SessionID == old {
		t.Fatal("the continuation ran in the old conversation")
	}
	return firstTurnOf(w, cont.SessionID)
}

// carriesVerbatim reports whether a request's user messages hold prompt,
// verbatim, as the person's own words.
func carriesVerbatim(r *fakeapi.Request, prompt string) bool {
	text := strings.Join(r.UserTexts(), "\n")
	return strings.Contains(text, "<<<\n"+prompt+"\n>>>") && strings.Contains(text, state.CarriedIntro)
}

// Issue 18: the prompt typed at 98.5 % of the context window was lost.
// One reply jumps to 985,000 of the 1M tokens; the person's next prompt
// makes claude start an automatic compaction, which superclaude blocks,
// and superclaude restarts claude fresh — before claude's transcript held
// the prompt. The fresh claude's very first request must carry that
// prompt verbatim, marked as the person's own words.
func TestPromptTypedAtFullContextReachesTheFreshClaude(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.unsetEnv("CLAUDE_CODE_DISABLE_1M_CONTEXT")
	tm := w.tmux()
	pane := tm.pane("carry", "main", "A")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	w.model.SetUsage(usage(985_000))
	mark := w.api.Mark()
	tm.typeLine(pane, "read the whole repository")
	w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), "read the whole repository") })
	w.session("X", "the usage of the huge reply", func(st *state.State) bool { return st.ContextUsage >= 0.98 })

	// The fresh claude's first reply is held: until it activates the
	// session, its status line must carry no overflow advice (the old
	// context's), since its own context is fresh.
	held := make(chan struct{})
	release := sync.OnceFunc(func() { close(held) })
	defer release()
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate X implement", "take over").Content, Match: isContinuation, Hold: held},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	w.model.SetUsage(usage(2_000))
	const typed = "A: the IMPORTANT next instruction"
	mark = w.api.Mark()
	tm.typeLine(pane, typed)

	first := freshFirstTurn(t, w, tm, pane, mark, conv)
	if !carriesVerbatim(first, typed) {
		t.Fatalf("the fresh claude's first request does not carry %q verbatim:\n%s", typed, strings.Join(first.UserTexts(), "\n---\n"))
	}
	screen := tm.waitScreen(pane, "fresh context after a restart")
	if strings.Contains(screen, "OVERFLOW") || strings.Contains(screen, "dehydrate restart") {
		t.Fatalf("the fresh claude's status line still advises an overflow restart:\n%s", screen)
	}
	release()
	evs, _ := w.store().Events("X")
	found := false
	for _, ev := range evs {
		found = found || (ev.Kind == "prompt-carried" && strings.Contains(ev.Reason, typed))
	}
	if !found {
		t.Fatalf("+why does not say the prompt was carried: %+v", evs)
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// Issue 18: a prompt submitted just before a restart decision — 0, 20,
// 50 and 200 ms before superclaude takes a restart request — reaches the
// fresh claude verbatim in its first request. The old claude's answer to
// it is held by the fake API, so the prompt is never answered there; at
// 0 ms the restart request and the Enter reach superclaude together.
func TestPromptTypedJustBeforeARestartReachesTheFreshClaude(t *testing.T) {
	t.Parallel()
	for _, before := range []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond, 200 * time.Millisecond} {
		t.Run(fmt.Sprintf("%dms", before.Milliseconds()), func(t *testing.T) {
			t.Parallel()
			promptBeforeRestart(t, before)
		})
	}
}

func promptBeforeRestart(t *testing.T, before time.Duration) {
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("late", "main", "B")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID

	typed := "B: the next instruction, typed " + strconv.Itoa(int(before.Milliseconds())) + " ms before the restart"
	hold := make(chan struct{})
	defer close(hold)
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Text("never finished").Content, Hold: hold,
			Match: func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), typed) }},
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate X implement", "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	sock := filepath.Join(w.tmp, "superclaude", strconv.Itoa(sup.PID)+".sock")
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("the supervisor's socket: %v", err)
	}
	w.session("X", "owned", func(st *state.State) bool { return st.PID == sup.PID })

	// The text, then Enter, then — before later — the restart.
	tm.waitScreen(pane, "❯")
	tm.must("send-keys", "-t", pane, "-l", typed)
	deadline := time.Now().Add(wait)
	for !inputShows(tm.capture(pane), typed[:40]) {
		if time.Now().After(deadline) {
			t.Fatalf("the input box never showed the prompt; screen:\n%s", tm.capture(pane))
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	mark := w.api.Mark()
	tm.must("send-keys", "-t", pane, "Enter")
	time.Sleep(before)
	ans, err := control.NewClient(sock, sup).Restart(context.Background(),
		control.Restart{Session: filepath.Join(w.sessions, "X"), Reason: "the test's restart", Now: true})
	if err != nil {
		t.Fatalf("restart: %v %+v", err, ans)
	}

	first := freshFirstTurn(t, w, tm, pane, mark, conv)
	if !carriesVerbatim(first, typed) {
		t.Fatalf("the fresh claude's first request does not carry %q verbatim:\n%s", typed, strings.Join(first.UserTexts(), "\n---\n"))
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// startsWithPrompt reports whether one of a start's arguments is the
// restart prompt, alone or with the person's carried words after it.
func startsWithPrompt(args []string, prompt string) bool {
	for _, a := range args {
		if a == prompt || strings.HasPrefix(a, prompt+"\n\n"+state.CarriedIntro) {
			return true
		}
	}
	return false
}

// Issue 18: the line a person was still typing when a restart came sat in
// the old claude's input box and was lost with it, in silence. It waits in
// the fresh claude's input box, unsent — not in its first request — and
// the person's Enter sends it.
func TestTypedTextUnfinishedAtARestartWaitsInTheFreshClaudesInputBox(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane, sup, conv := claudeInX(t, w, tm, "tail", "T")

	const unfinished = "T: the half-typed next instruction"
	tm.waitScreen(pane, "❯")
	tm.must("send-keys", "-t", pane, "-l", unfinished)
	deadline := time.Now().Add(wait)
	for !inputShows(tm.capture(pane), unfinished) {
		if time.Now().After(deadline) {
			t.Fatalf("the input box never showed the line; screen:\n%s", tm.capture(pane))
		}
		time.Sleep(50 * time.Millisecond)
	}
	mark := w.api.Mark()
	restartX(t, w, sup)

	first := freshFirstTurn(t, w, tm, pane, mark, conv)
	if strings.Contains(strings.Join(first.UserTexts(), "\n"), unfinished) {
		t.Fatal("the unfinished line was sent in the fresh claude's first request; it was never submitted")
	}
	w.session("X", "the fresh claude to take over", func(st *state.State) bool { return st.SessionID != "" && st.SessionID != conv })
	deadline = time.Now().Add(wait)
	for !inputShows(tm.capture(pane), unfinished) {
		if time.Now().After(deadline) {
			t.Fatalf("the fresh claude's input box does not show the unfinished line; screen:\n%s", tm.capture(pane))
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, r := range w.api.Requests()[mark:] {
		if strings.Contains(r.LastUserText(), unfinished) {
			t.Fatal("the unfinished line was sent before the person's Enter")
		}
	}
	time.Sleep(150 * time.Millisecond)
	mark = w.api.Mark()
	tm.must("send-keys", "-t", pane, "Enter")
	sent, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), unfinished) })
	if !ok {
		t.Fatalf("Enter did not send the unfinished line; screen:\n%s", tm.capture(pane))
	}
	if sent.SessionID == conv {
		t.Fatal("the line was sent in the old conversation")
	}
	found := false
	for _, ev := range w.events("typed-given-back") {
		found = found || strings.Contains(ev.Reason, unfinished)
	}
	if !found {
		t.Fatal("+why does not say where the unfinished line went")
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}

// claudeInX starts superclaude in a new pane (tmux session name, pane
// label), has its claude activate sessions/X, and readies the fake API
// for a fresh claude's continuation. It returns the pane, the supervisor
// and X's conversation.
func claudeInX(t *testing.T, w *world, tm *tmuxServer, name, label string) (string, proc.Identity, string) {
	t.Helper()
	pane := tm.pane(name, "main", label)
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" }).SessionID
	w.session("X", "owned", func(st *state.State) bool { return st.PID == sup.PID })
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate X implement", "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	return pane, sup, conv
}

// restartX asks sup, through its socket, to restart X now, as
// `+session restart` does.
func restartX(t *testing.T, w *world, sup proc.Identity) {
	t.Helper()
	sock := filepath.Join(w.tmp, "superclaude", strconv.Itoa(sup.PID)+".sock")
	if ans, err := control.NewClient(sock, sup).Restart(context.Background(),
		control.Restart{Session: filepath.Join(w.sessions, "X"), Reason: "the test's restart", Now: true}); err != nil {
		t.Fatalf("restart: %v %+v", err, ans)
	}
}

// Issue 18: a prompt that switches the pane's session — claude runs
// `superclaude +session activate X` for it — is noted by the session bound
// when it was typed (the supervisor's own), never by X. A restart of X a
// moment later read the typed line back against X alone, found it not
// taken and carried it into the fresh claude's first request: the fresh
// claude was told the person had just asked for it, and acted on it twice.
func TestPromptThatSwitchedTheSessionIsNotCarriedOverARestart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	pane := tm.pane("switch", "main", "S")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate X implement", "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	activate(t, w, tm, pane, "sessions/X", "implement")
	conv := w.session("X", "owned and bound", func(st *state.State) bool { return st.PID == sup.PID && st.SessionID != "" }).SessionID

	// At once, well within the grace and 3 s of the line's Enter.
	mark := w.api.Mark()
	sock := filepath.Join(w.tmp, "superclaude", strconv.Itoa(sup.PID)+".sock")
	ans, err := control.NewClient(sock, sup).Restart(context.Background(),
		control.Restart{Session: filepath.Join(w.sessions, "X"), Reason: "the test's restart", Now: true})
	if err != nil {
		t.Fatalf("restart: %v %+v", err, ans)
	}
	first := freshFirstTurn(t, w, tm, pane, mark, conv)
	if text := strings.Join(first.UserTexts(), "\n---\n"); strings.Contains(text, "<<<\nrun: superclaude") {
		t.Fatalf("the fresh claude's first request carries the prompt that switched the session, taken already:\n%s", text)
	}
	evs, _ := w.store().Events("X")
	for _, ev := range evs {
		if ev.Kind == "prompt-carried" || ev.Kind == "typed-command" {
			t.Fatalf("+why: %s: %s", ev.Kind, ev.Reason)
		}
	}
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
}
