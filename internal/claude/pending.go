package claude

import (
	"strings"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Limits on the prompts a session keeps pending (state.PendingPrompts):
// the state file holds at most 1 MiB, and a prompt that is pending is
// one the person typed a moment ago, so a few are plenty. A prompt
// longer than MaxPromptBytes is kept cut, and its carrying says so.
const (
	MaxPendingPrompts = 8
	MaxPromptBytes    = 96 << 10
)

// OwnPrompt reports whether a submitted prompt is superclaude's own, not
// the person's: the restart prompt of a fresh agent (the session
// command, with or without the person's carried words after it), or the
// carried words alone (a resumed agent's first prompt). The person's
// prompts inside it are still pending from before: they are not noted
// twice.
func OwnPrompt(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, SessionCommand+" ") || strings.HasPrefix(t, state.CarriedIntro)
}

// AutoContinueText is how the continuation Claude Code sends by itself
// after a usage limit resets (its own auto-continue, AutoContinueSetting)
// begins, as 2.1.330 words it when the server gives no text of its own
// (docs/claude-code-limits.md, §10).
const AutoContinueText = "Your claude.ai usage limit has reset. Continue the task you were working on"

// Injected reports whether a UserPromptSubmit's prompt is one claude put
// there itself, not one the person typed: its source says a machine
// injected it — "system" (claude's own auto-continuation after a usage
// limit, which it queues as a meta prompt; a task notification), a
// scheduled or loop wakeup, a polled event — or its text is claude's
// auto-continuation. "user" (typed, queued, a suggestion taken) and "sdk"
// (-p) are the person's, and so is a payload without a source (claude
// before it said). Such a prompt is not the person's to carry over a
// restart, nor a sign that the person went on after a limit.
func Injected(in HookInput) bool {
	switch in.Source {
	case "", "user", "sdk":
	default:
		return true
	}
	return strings.HasPrefix(strings.TrimSpace(in.Prompt), AutoContinueText)
}

// RecordPrompt notes a prompt the UserPromptSubmit hook received, at now.
// Claude Code runs that hook before it sends the prompt anywhere — before
// its transcript holds it — so this is the one place a prompt typed a
// moment before a restart is certain to be found. The person's prompts are
// kept in st.PendingPrompts until the turn that answers them ends
// (AnswerPrompt); every prompt, superclaude's own and claude's own
// (Injected) included, becomes st.LastPromptID, so that the end of its
// turn answers the person's before it. A prompt is kept with by, the
// identity of the supervisor the hook runs under (its environment's
// SUPERCLAUDE_SUPERVISOR): only that supervisor carries it over a restart
// (state.Prompt.By). It reports whether st changed.
func RecordPrompt(st *state.State, in HookInput, now time.Time, by string) bool {
	if in.Unreadable != "" {
		return false
	}
	st.LastPromptID, st.LastPromptAt = in.PromptID, now
	if OwnPrompt(in.Prompt) || Injected(in) || strings.TrimSpace(in.Prompt) == "" {
		return true
	}
	text := in.Prompt
	if len(text) > MaxPromptBytes {
		text = clipTo(text, MaxPromptBytes) + " […]"
	}
	st.PendingPrompts = append(st.PendingPrompts, state.Prompt{ID: in.PromptID, At: now, Text: text, By: by})
	if n := len(st.PendingPrompts); n > MaxPendingPrompts {
		st.PendingPrompts = append([]state.Prompt(nil), st.PendingPrompts[n-MaxPendingPrompts:]...)
	}
	return true
}

// AnswerPrompt notes that the turn of the prompt in.PromptID ended (the
// Stop hook): that prompt and every one submitted before it are answered,
// so they are no longer pending. A Stop that names no prompt superclaude
// saw changes nothing: a prompt is never dropped on a guess. A turn that
// failed (StopFailure: a limit, a prompt too long) answers nothing. It
// reports whether st changed.
func AnswerPrompt(st *state.State, in HookInput) bool {
	if in.PromptID == "" || len(st.PendingPrompts) == 0 {
		return false
	}
	var upTo time.Time
	switch {
	case in.PromptID == st.LastPromptID:
		upTo = st.LastPromptAt
	default:
		for _, p := range st.PendingPrompts {
			if p.ID == in.PromptID {
				upTo = p.At
			}
		}
	}
	if upTo.IsZero() {
		return false
	}
	kept := st.PendingPrompts[:0:0]
	for _, p := range st.PendingPrompts {
		if p.At.After(upTo) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(st.PendingPrompts) {
		return false
	}
	st.PendingPrompts = kept
	if len(kept) == 0 {
		st.PendingPrompts = nil
	}
	return true
}

// TakesAsPrompt reports whether claude, given line and Enter at its
// prompt, takes it as a prompt — runs UserPromptSubmit for it, notes it
// pending (RecordPrompt) — as 2.1.330 was measured to
// (e2e/lab_typing_test.go): a command ("/model", "/help", "/cost": a slash
// and a name) and a line of its bash mode ("!ls") run no hook; a line
// that begins "#" is a prompt like any other. A command a plugin or the
// user defines that expands to a prompt does run it, but what was typed
// is still a command, not words to carry.
func TakesAsPrompt(line string) bool {
	t := strings.TrimLeft(line, " ")
	if strings.HasPrefix(t, "!") {
		return false
	}
	name, ok := strings.CutPrefix(t, "/")
	if !ok {
		return true
	}
	name, _, _ = strings.Cut(name, " ")
	name, _, _ = strings.Cut(name, "\n")
	return name == "" || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ':' || r == '-' || r == '_')
	}) >= 0
}

// clipTo cuts s to at most n bytes, at a character boundary.
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
