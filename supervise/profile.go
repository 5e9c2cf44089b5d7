package supervise

import (
	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Profile tells the supervisor how to drive one agent CLI: what to run, how
// to resume a conversation, how to hand it a first prompt, and how to read
// a user's command line. superclaude ships profiles for Claude Code and for
// other agent CLIs; a library user can write their own.
type Profile struct {
	// Name names the profile ("claude", "codex" …).
	Name string
	// Command is the executable run when the user names none.
	Command string
	// Scan reads the user's arguments.
	Scan func(args []string) Invocation
	// Resume returns args changed to resume conversation id, or nil when the
	// CLI cannot resume (then every restart starts fresh).
	Resume func(args []string, id string) []string
	// Prompt returns args changed to give a fresh conversation prompt as its
	// first prompt, or nil when the CLI cannot take one.
	Prompt func(args []string, prompt string) []string
	// ContextUsage says where the conversation's context usage comes from.
	// ContextNone turns overflow restart off for the profile.
	ContextUsage ContextSource
	// RestartPrompt is the first prompt of a fresh agent after an overflow
	// restart of session (its name, or its directory when it lives outside
	// the supervisor's sessions root), at the skill and phase the state
	// records. Nil uses [DefaultRestartPrompt].
	RestartPrompt func(session, skill, phase string) string
	// Dehydrate writes the dehydrated context of session at skill and
	// phase — what a fresh agent reads to carry on — from the agent's
	// transcript (empty when unknown), for a restart the agent did not
	// dehydrate for itself; why says what caused it. Nil writes none.
	Dehydrate func(transcript, session, skill, phase, why string) ([]byte, error)
	// Status reads what the running agent (started with env) says it is
	// doing: StatusBusy, StatusIdle or StatusWaiting. Nil when the CLI
	// does not say; restarts are then never turn-gated.
	Status func(env []string, agent proc.Identity) (string, error)
	// Output, when set, rewrites the agent's output on its way to the
	// terminal (see child.Spec.Rewrite): Claude Code's exit hint names
	// `claude --resume <id>`, which would run claude without superclaude.
	Output child.RewriteFunc
}

// What an agent is doing, as Profile.Status reports it.
const (
	StatusIdle    = "idle"    // at its prompt
	StatusBusy    = "busy"    // a turn is under way
	StatusWaiting = "waiting" // it waits for the user's input (a permission dialog …)
)

// DefaultRestartPrompt is the restart prompt of a profile that has none of
// its own: plain words any agent understands.
func DefaultRestartPrompt(session, skill, phase string) string {
	p := "You were restarted with a fresh context to continue the work of session " + session
	if skill != "" {
		p += " (skill " + skill + ")"
	}
	if phase != "" {
		p += ", at " + phase
	}
	return p + ". Your previous context is saved in DEHYDRATED_CONTEXT.md in that session's directory: read it, then carry on."
}

func (p Profile) restartPrompt(session, skill, phase string) string {
	if p.RestartPrompt != nil {
		return p.RestartPrompt(session, skill, phase)
	}
	return DefaultRestartPrompt(session, skill, phase)
}

// ContextSource is where a profile's context usage comes from.
type ContextSource string

const (
	// ContextStatusLine: Claude Code's status-line JSON
	// (context_window.used_percentage), bound by `superclaude +statusline`.
	ContextStatusLine ContextSource = "statusline"
	// ContextNone: the CLI reports no usage; no overflow restart.
	ContextNone ContextSource = "none"
)

// Invocation is what a user's command line asks of the agent.
type Invocation struct {
	// OneShot is a run for one answer or one subcommand (`-p`, `mcp list`,
	// `--version`): no session, no resume, no restart; its exit code is
	// superclaude's.
	OneShot bool
	// PrintsOnly is a one-shot run that only prints (`--version`,
	// `--help`) and starts nothing: there is nothing to supervise and
	// nothing it can leave behind.
	PrintsOnly bool
	// ChoseConversation is set when the user already named the
	// conversation (--resume, --continue …): no fleet resume on top.
	ChoseConversation bool
	// Restart is the command line a restarted agent gets, before the
	// supervisor adds a resume or a prompt: the user's options without
	// their choice of conversation or their first prompt, which belonged
	// to the first start only.
	Restart []string
}

// Args returns the agent's arguments for a start: the user's own for the
// first start, the restart arguments after it, changed by the plan's resume
// or prompt.
func (p Profile) Args(user []string, inv Invocation, plan Plan, first bool) []string {
	base := user
	if !first {
		base = inv.Restart
	}
	out := append([]string(nil), base...)
	prompt := plan.Prompt
	if plan.Action == Resume && p.Resume != nil {
		out = p.Resume(out, plan.SessionID)
		prompt = ""
	}
	if carried := state.CarryText(plan.Carried); carried != "" {
		prompt = joinPrompt(prompt, carried)
	}
	if prompt != "" && p.Prompt != nil {
		out = p.Prompt(out, prompt)
	}
	return out
}

// joinPrompt puts the person's carried words after a restart prompt, on
// lines of their own.
func joinPrompt(prompt, carried string) string {
	if prompt == "" {
		return carried
	}
	return prompt + "\n\n" + carried
}

// CanCarry reports whether the profile can hand a restarted agent the
// person's unanswered prompts: only as a first prompt.
func (p Profile) CanCarry() bool { return p.Prompt != nil }

// CanResume reports whether the profile can resume a conversation.
func (p Profile) CanResume() bool { return p.Resume != nil }
