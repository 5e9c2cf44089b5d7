package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
)

func isContinuation(r *fakeapi.Request) bool {
	return r.Kind == fakeapi.KindTurn && strings.Contains(strings.Join(r.UserTexts(), "\n"), "<command-name>/superclaude:session</command-name>")
}

// overflowRestart drives S4
// (docs/design.md#an-overflow-restart-step-by-step-s4) through the real
// CLI, for the session name that the agent works in (skill its skill):
// usage past the threshold, the next tool blocked with the dehydrate
// message, the model's `+session restart`, the old claude gone, a fresh
// claude started with the continuation prompt and no --resume, whose
// activate clears overflowed and killRequested. arg is how the continuation
// names the session: its name, or its directory when it lives outside the
// supervisor's sessions directory. typeLine types a prompt into claude; sup
// is the supervisor.
func overflowRestart(t *testing.T, w *world, typeLine func(string), sup proc.Identity, name, arg, skill string) {
	t.Helper()
	before := w.mine(sup.PID, "the session "+name, func(st *state.State) bool { return st.SessionID != "" })
	if before.Name != name {
		t.Fatalf("the agent works in %s, want %s", before.Name, name)
	}
	first := before.State.SessionID
	starts := len(w.agentStarts())
	oldClaude := agentPID(t, w)

	// A turn whose replies report 160k of 200k tokens: 80 %. The guard
	// lags one reply (docs/design.md, what we rely on), so this tool
	// still runs.
	w.model.SetUsage(usage(160_000))
	typeLine("run: echo step one")
	w.session(name, "contextUsage past the threshold", func(st *state.State) bool { return st.ContextUsage >= 0.76 })
	// The turn must have ended before the next prompt: typed while claude
	// still works, it is folded into that turn's tool result ("The user
	// sent a new message while you were working"), the fake API sees no
	// "run:" prompt, and no tool call comes to be blocked (seen on a
	// loaded machine).
	w.until("claude idle after step one", func() bool {
		s, _ := claude.AgentStatus(w.config, oldClaude.PID, oldClaude.Start)
		return s == "idle"
	})

	// The next tool call is blocked with the dehydrate message.
	mark := w.api.Mark()
	typeLine("run: echo step two")
	blocked, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool {
		tr, ok := r.LastToolResult()
		return ok && tr.IsError && strings.Contains(tr.Text, "Context window full")
	})
	if !ok {
		t.Fatal("the tool call past the threshold was not blocked")
	}
	if tr, _ := blocked.LastToolResult(); !strings.Contains(tr.Text, claude.SessionCommand+" dehydrate restart") {
		t.Fatalf("the block does not say what to do: %q", tr.Text)
	}
	w.session(name, "overflowed", func(st *state.State) bool { return st.Overflowed })

	// The fresh claude's continuation activates the session, as the
	// plugin's continue instructs.
	w.api.Push(
		fakeapi.Reply{Content: fakeapi.Bash("superclaude +session activate "+arg+" "+skill, "take over").Content, Match: isContinuation},
		fakeapi.Reply{Content: fakeapi.Text("continued").Content, Match: isContinuation},
	)
	w.model.SetUsage(usage(2_000))
	// By its absolute path, as the plugin's session command spells it:
	// past the threshold the bare name is no bookkeeping (the Bash
	// tool's shell may find another superclaude on its PATH).
	typeLine("run: " + w.superclaude + " +session restart")

	cont, ok := w.api.WaitAfter(mark, wait, isContinuation)
	if !ok {
		t.Fatal("no continuation turn reached the API")
	}
	if cont.SessionID == first {
		t.Fatal("the continuation ran in the overflowed conversation (resumed)")
	}
	if text := strings.Join(cont.UserTexts(), "\n"); !strings.Contains(text, "continue --session "+arg) {
		t.Fatalf("continuation arguments missing: %q", text)
	}
	all := w.agentStarts()
	if len(all) <= starts {
		t.Fatalf("agent starts: %v", all)
	}
	next := all[starts]
	if !startsWithPrompt(next, claude.ContinuePrompt(arg, skill, "")) || slices.Contains(next, "--resume") {
		t.Fatalf("the fresh start's args %q: want %q and no --resume", next, claude.ContinuePrompt(arg, skill, ""))
	}
	if proc.Alive(oldClaude) {
		t.Fatalf("the old claude (pid %d) is still running", oldClaude.PID)
	}
	w.session(name, "activate to clear overflowed and killRequested", func(st *state.State) bool {
		return !st.Overflowed && !st.KillRequested && st.Lifecycle == state.Active && st.RestartPrompt == "" && st.PID == sup.PID
	})
	w.session(name, "the new conversation to be bound", func(st *state.State) bool { return st.SessionID == cont.SessionID })
}

// agentPID is the identity of the agent the supervisor runs now, from the
// last agent-start event.
func agentPID(t *testing.T, w *world) proc.Identity {
	t.Helper()
	// A new session's events are held until its agent shows it started
	// (state.Store.HoldEvents): the conversation bound in its state can
	// come a moment before the supervisor has seen it and written them.
	var pid int
	for deadline := time.Now().Add(wait); pid == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, ev := range w.events("agent-start") {
			if f, ok := ev.Detail["pid"].(float64); ok {
				pid = int(f)
			}
		}
	}
	id, err := proc.Of(pid)
	if err != nil {
		t.Fatalf("the agent (pid %d): %v", pid, err)
	}
	return id
}

// S4 on a session a skill activated: the path the last release lost. The
// project had no sessions/ when superclaude started, so the skill's
// session lives outside the supervisor's sessions directory and the
// continuation names it by its directory.
func TestS4OverflowRestartOfASkillSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.RemoveAll(w.sessions)
	tm := w.tmux()
	pane := tm.pane("s4", "main", "")
	tm.send(pane, "superclaude")
	sup := tm.supervisor(pane)
	w.mine(sup.PID, "the supervisor's own session to bind", func(st *state.State) bool { return st.SessionID != "" })
	activate(t, w, tm, pane, "sessions/X", "implement")
	w.session("X", "the conversation id", func(st *state.State) bool { return st.SessionID != "" })

	overflowRestart(t, w, func(s string) { tm.typeLine(pane, s) }, sup, "X", filepath.Join(w.sessions, "X"), "implement")
	tm.typeLine(pane, "/exit")
	w.until("superclaude to exit", func() bool { return !proc.Alive(sup) })
	if code, _ := tm.exitAndStty(pane); code != 0 {
		t.Fatalf("superclaude exited %d", code)
	}
}

// S4 on the supervisor's own session, for a user without skills, on a
// plain terminal.
func TestS4OverflowRestartOfTheSupervisorsOwnSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.start()
	sup, _ := proc.Of(p.Cmd.Process.Pid)
	sess := w.mine(sup.PID, "the first status line to bind", func(st *state.State) bool { return st.SessionID != "" })
	if !sess.State.Auto {
		t.Fatalf("the supervisor's own session is not marked auto: %+v", sess.State)
	}
	// Its sessions live in the project's sessions/, which exists.
	if sess.Store.Root != w.sessions {
		t.Fatalf("the session is in %s, want the project's %s", sess.Store.Root, w.sessions)
	}
	overflowRestart(t, w, func(s string) { typeLine(p, s) }, sup, sess.Name, sess.Name, "")
	typeLine(p, "/exit")
	if code := p.Wait(t, wait); code != 0 {
		t.Fatalf("superclaude exited %d, want claude's 0", code)
	}
}
