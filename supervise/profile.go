package supervise

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// Profile tells the supervisor how to drive one agent CLI: what to run, how
// to read a user's command line, how to start, resume and prompt a
// conversation, how to learn which conversation the running agent has and
// what it is doing. superclaude ships profiles for Claude Code, Codex,
// Gemini CLI and others (docs/agent-clis.md says what each CLI was measured
// to do); a library user can write their own.
//
// Every hook is optional: a nil hook is a capability the CLI lacks, and the
// supervisor says so where it matters (a restart that cannot resume starts
// a new conversation and says why; an agent whose state cannot be read
// shows "unknown" in +status).
type Profile struct {
	// Name names the profile ("claude", "codex" …).
	Name string
	// Command is the executable run when the user names none.
	Command string
	// Scan reads the user's arguments: whether the run is one answer
	// (never restarted), whether it names a conversation, and what a
	// restart runs instead of the first start's words. Nil: every run is
	// interactive and restarts with the same arguments.
	Scan func(args []string) Invocation
	// Resume returns args changed to resume conversation id, or nil when the
	// CLI cannot resume (then every restart starts fresh). It is given the
	// restart arguments (Invocation.Restart), from which the user's own
	// choice of conversation is gone, so that the two never stack.
	Resume func(args []string, id string) []string
	// ValidID, when set, reports whether id has the form of this CLI's
	// conversation ids. The supervisor asks before it resumes an id it
	// recorded — the session's state file, which anything that writes it
	// may have garbled — and does not give the CLI one that is not: an id
	// that starts with "-" would be read as an option. The agent then
	// starts a new conversation and the person is told why. Nil accepts
	// any id that does not start with "-" and holds no space or control
	// character. Claude Code, Codex and Gemini CLI take a UUID.
	ValidID func(id string) bool
	// Fresh, when set, returns args changed for a start of an interactive
	// run that is not a resume: Codex is run without its shared background
	// server, Gemini CLI under a conversation id the supervisor chooses.
	// Nil leaves them.
	Fresh func(args []string) []string
	// Prompt returns args changed to give a fresh conversation prompt as its
	// first prompt, or nil when the CLI cannot take one.
	Prompt func(args []string, prompt string) []string
	// Conversation, when set, learns the conversation the running agent
	// has: its id and, when there is one, the file the CLI keeps it in
	// (the transcript). An empty id with a nil error means the agent has
	// none yet (Codex writes its conversation at the first prompt); an
	// error means it cannot be learned, which the supervisor records and
	// shows. The supervisor asks when what Watch names changes (once a
	// second without Watch) and binds what it learns to the session, so
	// that a restart resumes it. Nil: the
	// profile cannot learn it (Claude Code's is bound by its status line
	// instead).
	Conversation func(a Running) (id, transcript string, err error)
	// Status reads what the running agent says it is doing: StatusBusy,
	// StatusIdle or StatusWaiting. Nil when the CLI does not say: +status
	// shows "unknown", and a restart or stop asked for from outside cannot
	// wait for the agent's turn to end, and says so.
	Status func(a Running) (string, error)
	// Watch, when set, names what the supervisor watches for a: the
	// files and directories whose changes are the only ones that can
	// change what Status and Conversation answer (WatchSet). The
	// supervisor learns of them from the kernel (internal/fswatch) and
	// asks then, so that an idle agent costs no wakeups. A profile with
	// Status or Conversation and no Watch is asked once a second.
	Watch func(a Running) WatchSet
	// Keep, when set, makes a Keeper for each start of the agent: what
	// keeps the file the CLI keeps the conversation in from being lost
	// to another process while the agent runs (Gemini CLI's). Nil: the
	// CLI's file needs no keeping.
	Keep func() Keeper
	// ResumeFailCode is the exit code with which the CLI says, at once,
	// that it cannot resume the conversation it was given (an unknown or
	// deleted id): the supervisor then starts a new one instead of trying
	// again. Zero means 1 (Claude Code and Codex); Gemini CLI uses 42.
	ResumeFailCode int
	// Activates is set when the agent activates its session itself once it
	// carries on after a restart prompt (Claude Code's /superclaude:session
	// continue). The progress breaker counts the restarts whose agent ended
	// before it did; for a CLI that never activates one, there is nothing
	// to count.
	Activates bool
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
	// dehydrate for itself; why says what caused it. Nil writes none: a
	// restart of such an agent then resumes its conversation where it can,
	// and is never told to read a file nobody wrote.
	Dehydrate func(transcript, session, skill, phase, why string) ([]byte, error)
	// TakesAsPrompt, when set, says that the agent's prompt hook notes
	// each prompt it takes (state.LastPromptAt, PendingPrompts), and
	// reports whether a line typed with Enter into the agent is one it
	// takes as a prompt, not a command it runs itself. The supervisor
	// then reads back what it relayed to an agent that ended
	// (readBack): a line whose Enter came after the last prompt noted,
	// which the agent never took, is carried to the next agent like an
	// unanswered prompt, and the line left unfinished in its input box
	// waits in the next one's. Nil: nothing is read back.
	TakesAsPrompt func(line string) bool
	// HoldKeysAtRestart says that an agent started again drops the keys
	// typed before it is ready for them, and that its Status tells when
	// it is, from the process itself (claude's sessions/<pid>.json): what
	// is typed from a restarted agent's start is held until then
	// (child.Spec.HoldKeys). Not for a status read from a conversation
	// file, which an agent resumed reports at once, before it is ready
	// (Gemini CLI's: keys given then were lost).
	HoldKeysAtRestart bool
	// Output, when set, rewrites the agent's output on its way to the
	// terminal (see child.Spec.Rewrite): an exit hint that names
	// `claude --resume <id>` or `codex resume <id>` would run the agent
	// without superclaude.
	Output child.RewriteFunc
}

// Running is what a profile's hooks are told of the agent that runs now.
type Running struct {
	// Process is the process the supervisor started: the agent, or the
	// launcher that runs it (an npm package's node script).
	Process proc.Identity
	// Args, Env and Dir are its command line (without the executable),
	// environment and working directory.
	Args []string
	Env  []string
	Dir  string
	// Started is when it was started.
	Started time.Time
	// Conversation and Transcript are the conversation the supervisor
	// knows it has — the one it resumed, or the one last learned — and
	// that conversation's file; empty when none is known yet.
	Conversation, Transcript string
}

// WatchSet is what a profile names for the supervisor to watch while its
// agent runs (Profile.Watch).
type WatchSet struct {
	// Files are the files whose changes can change what the agent is
	// said to do, or which conversation it has.
	Files []string
	// Dirs are directories any file of which can: a CLI that writes a
	// new conversation to a new file, whose name is not known before.
	Dirs []string
	// Until is when the set must be asked for again although nothing
	// changed (a directory named by the day); zero: only at a change.
	Until time.Time
}

// What an agent is doing, as Profile.Status reports it.
const (
	StatusIdle    = "idle"    // at its prompt
	StatusBusy    = "busy"    // a turn is under way
	StatusWaiting = "waiting" // it waits for the user's input (a permission dialog …)
	// StatusUnknown is what +status shows for an agent whose CLI does not
	// say (its profile has no Status).
	StatusUnknown = "unknown"
)

// DefaultRestartPrompt is the restart prompt of a profile that has none of
// its own: plain words any agent understands. It is given only when the
// session's directory holds a dehydrated context to read. It is exported
// for a program's own Profile.RestartPrompt, which can add to these words
// rather than write them again.
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

// badID says why the profile's CLI must not be given id to resume, ""
// when it may (ValidID).
func (p Profile) badID(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case strings.HasPrefix(id, "-"):
		return "it starts with \"-\", and the agent would read it as an option"
	case p.ValidID != nil && !p.ValidID(id):
		return fmt.Sprintf("it is not in the form of a %s conversation id", p.Name)
	case strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return "it holds a space or a control character"
	}
	return ""
}

// resumeFailCode is ResumeFailCode with its default.
func (p Profile) resumeFailCode() int {
	if p.ResumeFailCode == 0 {
		return 1
	}
	return p.ResumeFailCode
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
	// `codex exec`, `--version`): no session, no resume, no restart; its
	// exit code is superclaude's.
	OneShot bool
	// PrintsOnly is a one-shot run that only prints (`--version`,
	// `--help`) and starts nothing: there is nothing to supervise and
	// nothing it can leave behind.
	PrintsOnly bool
	// ChoseConversation is set when the user already named the
	// conversation (--resume, --continue, `codex resume` …): no fleet
	// resume on top.
	ChoseConversation bool
	// Restart is the command line a restarted agent gets, before the
	// supervisor adds a resume or a prompt: the user's options without
	// their choice of conversation or their first prompt, which belonged
	// to the first start only.
	Restart []string
}

// Args returns the agent's arguments for a start: the user's own for the
// first start, the restart arguments after it — and for a resume, which
// carries on a conversation the first prompt already went to — changed by
// the plan's resume or prompt and the profile's Fresh. A one-shot run runs
// as typed.
func (p Profile) Args(user []string, inv Invocation, plan Plan, first bool) []string {
	base := user
	if !first || (plan.Action == Resume && p.Resume != nil) {
		base = inv.Restart
	}
	out := append([]string(nil), base...)
	if inv.OneShot {
		return out
	}
	prompt := plan.Prompt
	resumed := plan.Action == Resume && p.Resume != nil
	if resumed {
		out = p.Resume(out, plan.SessionID)
		prompt = ""
	}
	if carried := state.CarryText(plan.Carried); carried != "" {
		prompt = joinPrompt(prompt, carried)
	}
	if prompt != "" && p.Prompt != nil {
		out = p.Prompt(out, prompt)
	}
	if !resumed && p.Fresh != nil {
		out = p.Fresh(out)
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
