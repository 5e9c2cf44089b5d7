package agentside

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/state"
)

// hookEventNames maps superclaude's hook subcommands to Claude Code's event
// names.
var hookEventNames = func() map[string]string {
	m := map[string]string{}
	for event, sub := range claude.HookEvents {
		m[sub] = event
	}
	return m
}()

// Hook answers one hook: read stdin (within claude.ReadHookInput's
// deadline), find the session, claude.Hook, print. Bad input never breaks
// claude's turn: it is logged and the tool allowed. It returns the exit
// code the answer needs.
func Hook(sub string, stdin io.Reader, stdout, stderr io.Writer) int {
	return hook(sub, claude.ReadHookInput(stdin), stdout, stderr)
}

func hook(sub string, payload []byte, stdout, stderr io.Writer) int {
	event, known := hookEventNames[sub]
	in, err := claude.ParseHookInput(payload)
	if !known || err != nil {
		logIf(fmt.Errorf("hook %s (known %v, %d bytes): %v", sub, known, len(payload), err), "hook: ignoring")
		return 0
	}
	var sess *state.Session
	if store, err := sessions.OpenStore("hook " + sub); err == nil {
		store.Report = nil
		sess, _ = sessions.Mine(store)
	}
	p := policy()
	var trouble string
	if (sub == "pre-tool-use" || sub == "pre-compact") && sess != nil {
		// A full disk: the usage the supervisor saw but could not store.
		p.SeenUsage, trouble = storeTrouble()
	}
	a, err := claude.Hook(sub, in, sess, p)
	logIf(err, "hook "+sub+": writing the session")
	if a.Block && trouble != "" {
		// The block relies on a restart with a fresh context, which needs
		// the agent's context saved: the session cannot be written. Let
		// the compaction go on rather than leave claude at "Context limit
		// reached", and say so.
		return claude.Answer{Notice: "superclaude cannot save the session (" + termtext.Clean(trouble) +
			"), so it cannot restart claude with a fresh context; it lets claude compact the conversation instead."}.Write(event, stdout, stderr)
	}
	if a.Restart != "" && sess != nil {
		// The agent cannot go on: its supervisor dehydrates and restarts it.
		ans, err := sessions.RequestRestart(sess, a.Restart, in.TranscriptPath, true, false)
		logIf(err, "hook "+sub+": asking the supervisor to restart the agent")
		if a.Block && (err != nil || ans.Resume) {
			// The block relies on a fresh start, which is not coming.
			why := "it could not save claude's context"
			if err != nil {
				why = termtext.Clean(err.Error())
			}
			a = claude.Answer{Notice: "superclaude could not restart claude with a fresh context (" + why +
				"), so it lets claude compact the conversation instead."}
		}
	}
	return a.Write(event, stdout, stderr)
}

// storeTrouble asks the agent's supervisor whether its status line's
// ticks can be stored (control.Status): when they cannot (a full disk),
// it returns the usage the last one showed and why; zero and "" when they
// can, or when no supervisor answers within a second. The supervisor is
// asked only when its socket says it has something to tell
// (control.Unsaved): most hooks learn there is nothing in one lstat.
func storeTrouble() (float64, string) {
	sock := os.Getenv(envvar.Socket)
	if sock == "" || !control.Unsaved(sock) {
		return 0, ""
	}
	sup, err := config.Supervisor()
	if err != nil {
		return 0, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st, err := control.NewClient(sock, sup).Status(ctx)
	if err != nil {
		return 0, ""
	}
	return st.SeenUsage, st.StoreProblem
}

// hookNames are the hooks' subcommands (claude.HookEvents' values), in the
// order a person reads them: before a tool, at a prompt, at compaction,
// at the start, at a failure, at the end of a turn.
var hookNames = []string{"pre-tool-use", "user-prompt-submit", "pre-compact", "session-start", "stop-failure", "stop"}

// HookNames are the hooks' subcommands, for +hook's help and completion.
func HookNames() []string { return slices.Clone(hookNames) }
