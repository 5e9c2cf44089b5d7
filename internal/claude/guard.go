package claude

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/superclaude/superclaude/state"
)

// DefaultThreshold is the context usage at which tools are blocked until the
// agent dehydrates: 76 %, the replaced scripts' threshold (S4). Claude Code
// feeds the guard one reply late, so the threshold keeps headroom below
// the ~90 % at which auto-compaction starts; the PreCompact guard is the
// backstop (docs/design.md#what-we-rely-on-from-the-agent-clis).
const DefaultThreshold = 0.76

// Policy holds the guards' settings.
type Policy struct {
	// Threshold is the overflow threshold (0 → DefaultThreshold).
	Threshold float64
	// SessionRequired turns on the session gate (SESSION_REQUIRED=1).
	SessionRequired bool
	// SeenUsage is the context usage the status line last showed when
	// the supervisor could not store it (a full disk; zero otherwise):
	// the overflow guard goes by the larger of it and the stored usage,
	// so that a store that fails never opens the guard.
	SeenUsage float64
	// Self is the superclaude binary the hook runs as (os.Executable),
	// and Path the PATH of the agent's environment: a Bash command is
	// superclaude's own +session or +log only when it runs that file
	// (isSelf). Without Self no command is.
	Self, Path string
	// Supervisor is the identity of the supervisor the hook runs under,
	// as its environment names it (SUPERCLAUDE_SUPERVISOR): the person's
	// prompts are recorded as received under it (RecordPrompt).
	Supervisor string
	// LimitContinue, when set, says who goes on after a usage limit
	// resets, for a limit being recorded (state.State.LimitContinue):
	// state.LimitBySuperclaude, LimitByClaude or LimitByNobody. Asked only
	// then: finding out reads every settings layer (AutoContinueOn), which
	// no other hook — a PreToolUse before every tool — needs to pay for.
	LimitContinue func() string
}

// limitContinue is what p.LimitContinue says, "" when unset.
func (p Policy) limitContinue() string {
	if p.LimitContinue == nil {
		return ""
	}
	return p.LimitContinue()
}

func (p Policy) threshold() float64 {
	if p.Threshold <= 0 {
		return DefaultThreshold
	}
	return p.Threshold
}

// Change is a state write a hook's decision needs.
type Change struct {
	Overflowed     bool   // set overflowed=true
	Dehydrating    bool   // set lifecycle=dehydrating
	CountKey       string // add one to toolCallsByTranscript[CountKey]
	ResetKey       string // set toolCallsByTranscript[ResetKey]=0
	TouchHeartbeat bool
}

// Empty reports whether c writes nothing.
func (c Change) Empty() bool { return c == Change{} }

// Apply writes c to st.
func (c Change) Apply(st *state.State) {
	if c.Overflowed {
		st.Overflowed = true
	}
	if c.Dehydrating {
		st.Lifecycle = state.Dehydrating
	}
	if c.CountKey != "" || c.ResetKey != "" {
		if st.ToolCallsByTranscript == nil {
			st.ToolCallsByTranscript = map[string]int{}
		}
		if c.CountKey != "" {
			st.ToolCallsByTranscript[c.CountKey]++
		}
		if c.ResetKey != "" {
			st.ToolCallsByTranscript[c.ResetKey] = 0
		}
	}
}

// The subcommands of superclaude that are session bookkeeping and pass
// every guard. The seeds' scripts they replace (session.sh, log.sh, …) do
// not: a file of that name may be anybody's, the repository's first.
var (
	sessionCommands = []string{"+session"}
	logCommands     = []string{"+log"}
)

// preToolUse is the guard before every tool call: the session gate, the
// overflow guard, then the logging heartbeat. sess is the
// session found for the caller, nil when there is none. It returns the
// answer and the state change to make; the caller makes it under the
// session's lock and asks again there, so that two concurrent tool calls
// count twice.
func preToolUse(in HookInput, sess *state.State, p Policy) (Answer, Change) {
	tool := in.Tool()
	isBash := tool.Name == "Bash"
	var line commandLine
	if isBash {
		line = parseCommandLine(tool.Command)
	}
	// Bookkeeping is a line of nothing but the session's own commands:
	// each command of a chain is judged (docs/design.md, mvdan.cc/sh).
	// Past the overflow threshold only superclaude's absolute path counts
	// (Policy.isSelfByPath says why).
	own := append(sessionCommands[:len(sessionCommands):len(sessionCommands)], logCommands...)
	bookkeeping := isBash && line.only(p.isSelf, own...)
	bookkeepingByPath := bookkeeping && line.only(p.isSelfByPath, own...)

	// The session gate (S10, S11). The supervisor's own session (auto) is
	// a convenience, not an activation: it keeps the gate closed.
	if p.SessionRequired && !GateOpen(sess) && !gateWhitelisted(tool, bookkeeping) {
		return Answer{Deny: true, Reason: gateMessage(sess)}, Change{}
	}
	if sess == nil {
		return Answer{}, Change{}
	}

	// The overflow guard. While dehydrating, or once the kill is
	// requested, everything passes (R4): the dehydration must finish. A
	// session that is restarting runs a fresh agent whose context is new;
	// its overflowed flag only waits for /session continue's activate.
	if sess.Lifecycle != state.Dehydrating && sess.Lifecycle != state.Restarting && !sess.KillRequested && !bookkeepingByPath {
		if isDehydrate(tool) {
			return Answer{}, Change{Dehydrating: true}
		}
		if usage := max(sess.ContextUsage, p.SeenUsage); sess.Overflowed || usage >= p.threshold() {
			return Answer{Deny: true, Reason: overflowMessage(usage, p.threshold())},
				Change{Overflowed: !sess.Overflowed}
		}
	}

	// The logging heartbeat: only in a skill's session, not while it
	// loads (invariant 13).
	if sess.Skill == "" || (sess.Loading != nil && *sess.Loading) {
		return Answer{}, Change{}
	}
	key := in.TranscriptKey()
	if isBash && line.runs(p.isSelf, logCommands...) {
		return Answer{}, Change{ResetKey: key}
	}
	if bookkeeping || isLogTemplateRead(tool) {
		return Answer{}, Change{}
	}
	n := sess.ToolCallsByTranscript[key] + 1
	warn, block := sess.ToolUseWithoutLogsWarnAfter, sess.ToolUseWithoutLogsBlockAfter
	if warn <= 0 {
		warn = state.DefaultWarnAfter
	}
	if block <= 0 {
		block = state.DefaultBlockAfter
	}
	switch {
	case n >= block:
		return Answer{Deny: true, Reason: heartbeatMessage(sess, n, true)}, Change{CountKey: key}
	case n >= warn:
		return Answer{Context: heartbeatMessage(sess, n, false)}, Change{CountKey: key}
	}
	return Answer{}, Change{CountKey: key}
}

// isDehydrate reports whether the tool call starts /session dehydrate:
// the Skill tool (or the slash-command tool) naming the session command
// with a dehydrate argument.
func isDehydrate(t ToolCall) bool {
	name := strings.TrimPrefix(t.Skill, "/")
	if (t.Name == "Skill" || t.Name == "SlashCommand") && (name == "session" || name == "superclaude:session") {
		return strings.HasPrefix(strings.TrimSpace(t.Args), "dehydrate")
	}
	if t.Name == "SlashCommand" {
		c := strings.TrimSpace(t.Command)
		return strings.HasPrefix(c, "/session dehydrate") || strings.HasPrefix(c, SessionCommand+" dehydrate")
	}
	return false
}

func isLogTemplateRead(t ToolCall) bool {
	if t.Name != "Read" {
		return false
	}
	base := filepath.Base(t.FilePath)
	return strings.HasPrefix(base, "TEMPLATE_") && strings.HasSuffix(base, "_LOG.md")
}

// gateWhitelisted: what the agent may do before it has a session: read its
// standards, run session bookkeeping, ask the user, and invoke a skill.
func gateWhitelisted(t ToolCall, bookkeeping bool) bool {
	switch t.Name {
	case "AskUserQuestion", "Skill", "SlashCommand":
		return true
	case "Bash":
		return bookkeeping
	case "Read":
		p := filepath.ToSlash(t.FilePath)
		base := filepath.Base(p)
		return strings.Contains(p, "/.claude/") || strings.HasPrefix(p, ".claude/") ||
			strings.HasPrefix(p, "~/.claude/") || base == "CLAUDE.md" || base == "MEMORY.md"
	}
	return false
}

// GateOpen reports whether the session gate (SESSION_REQUIRED=1) lets every
// tool through: only a session that a skill activated and has not
// completed opens it.
func GateOpen(sess *state.State) bool {
	return sess != nil && !sess.Auto && sess.Lifecycle != state.Completed
}

func gateMessage(sess *state.State) string {
	if sess != nil && sess.Lifecycle == state.Completed {
		return fmt.Sprintf("SESSION REQUIRED: the previous session (skill %s) is completed. "+
			"Ask the user with AskUserQuestion whether to continue it or start another skill; "+
			"tools other than reading standards, session commands and skills are blocked until a session is active.", orNone(sess.Skill))
	}
	return "SESSION REQUIRED: no session is active. Load your standards, then ask the user with " +
		"AskUserQuestion which skill to use; tools other than reading standards, session commands " +
		"and skills are blocked until a skill activates a session."
}

// overflowMessage is the reason a tool is refused past the threshold.
// Claude Code shows it after its own "PreToolUse:Bash hook error: …", so
// it opens with what is going on and what to do, in the words of advice:
// the person reading the screen sees a planned step, not a crash.
func overflowMessage(usage, threshold float64) string {
	return fmt.Sprintf("Context window full (%d%% used; superclaude restarts at %d%%). This is no error: time to save "+
		"your work and go on in a fresh context. Run %s dehydrate restart now: it saves your working context to "+
		"DEHYDRATED_CONTEXT.md and restarts you with a fresh context that carries on where you are. "+
		"Other tools wait until then.",
		int(math.Round(usage*100)), int(math.Round(threshold*100)), SessionCommand)
}

func heartbeatMessage(sess *state.State, n int, blocked bool) string {
	logFile := sess.TargetFile
	if logFile == "" {
		logFile = strings.ToUpper(sess.Skill) + "_LOG.md"
	}
	if blocked {
		return fmt.Sprintf("LOGGING HEARTBEAT VIOLATION: %d tool calls without a log entry. Append one to %s now "+
			"(follow its TEMPLATE_*_LOG.md): superclaude +log <<'EOF' … EOF. Other tools are blocked until you do.", n, logFile)
	}
	return fmt.Sprintf("Logging heartbeat: %d tool calls since your last log entry. Log your progress to %s soon: "+
		"superclaude +log <<'EOF' … EOF", n, logFile)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
