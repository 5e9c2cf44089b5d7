// Package envvar is the one source of what superclaude's processes say to
// each other through the environment: the name of every variable
// superclaude reads or sets, the format of the one value it computes for
// another superclaude to check (AgentParentValue), and the agent it runs
// when none is named (DefaultAgent).
//
// The environment is a protocol between processes that share no memory:
// the supervisor sets variables for the agent; Claude Code passes them on
// to the status line, the hooks and every Bash tool; a superclaude found as
// the agent reads them to step aside. A name spelt twice is a protocol
// that can drift, so every package takes the names from here
// (TestNoVariableNameOutsideEnvvar in this package fails on a literal
// elsewhere).
//
// It imports nothing, not even the standard library: internal/handover
// runs from an init function, before most of the program is initialised,
// and may import only what costs nothing to initialise (see its package
// doc).
package envvar

// Prefix begins the name of every variable of superclaude's own but the
// few it shares with the scripts it replaces (SupervisorPID, WatchdogPID,
// SessionRequired).
const Prefix = "SUPERCLAUDE_"

// Set by the supervisor in the agent's environment; Claude Code passes them
// on to its status line, hooks and Bash tool, and so to `superclaude +…`
// run from there.
const (
	// SupervisorPID is the supervisor's PID, under the name the session
	// scripts superclaude replaces gave it.
	SupervisorPID = "CLAUDE_SUPERVISOR_PID"
	// Supervisor is the supervisor's full identity (pid:start:boot), so
	// that a child can verify the PID before trusting it. It is also the
	// mark by which a sweep finds what a dead supervisor's agent left.
	Supervisor = "SUPERCLAUDE_SUPERVISOR"
	// Socket is the path of the supervisor's control socket.
	Socket = "SUPERCLAUDE_SOCKET"
	// WatchdogPID is the process that restarts the agent on SIGUSR1
	// (`kill -USR1 $WATCHDOG_PID` in the replaced scripts): the supervisor.
	WatchdogPID = "WATCHDOG_PID"
	// UserStatusLine is the person's own status-line command, which
	// superclaude's status line runs beside its own.
	UserStatusLine = "SUPERCLAUDE_USER_STATUSLINE"
)

// Set for every start of the agent, so that a superclaude started as the
// agent (installed as claude) knows it and steps aside (internal/handover).
const (
	// AgentFile lists, separated by colons, the files started as the agent
	// since a superclaude last supervised.
	AgentFile = "SUPERCLAUDE_AGENT_FILE"
	// AgentParent is the PID of the agent's parent and a hash of the
	// agent's arguments: AgentParentValue.
	AgentParent = "SUPERCLAUDE_AGENT_PARENT"
	// Depth counts the superclaudes, one inside the other, that started an
	// agent.
	Depth = "SUPERCLAUDE_DEPTH"
	// PTYLeader makes a re-executed superclaude the session leader of the
	// agent's pty (child/leader.go); its value is the protocol's version.
	PTYLeader = "SUPERCLAUDE_PTY_LEADER"
)

// Set by +up for a fleet pane's superclaude and agent.
const (
	// Fleet is the fleet file a pane belongs to: +down stops only the
	// processes that carry it.
	Fleet = "SUPERCLAUDE_FLEET"
)

// Read: the person's options (the README's Environment table).
const (
	SessionsDir       = "SUPERCLAUDE_SESSIONS_DIR"
	StateDir          = "SUPERCLAUDE_STATE_DIR"
	PaneID            = "SUPERCLAUDE_PANE_ID"
	Agent             = "SUPERCLAUDE_AGENT"
	Profile           = "SUPERCLAUDE_PROFILE"
	ResumePolicy      = "SUPERCLAUDE_RESUME_POLICY"
	LimitContinue     = "SUPERCLAUDE_LIMIT_CONTINUE"
	DehydrateWait     = "SUPERCLAUDE_DEHYDRATE_WAIT"
	OverflowThreshold = "SUPERCLAUDE_OVERFLOW_THRESHOLD"
	TmuxSocket        = "SUPERCLAUDE_TMUX_SOCKET"
	Grace             = "SUPERCLAUDE_GRACE"
	MaxCrashes        = "SUPERCLAUDE_MAX_CRASHES"
	CrashWindow       = "SUPERCLAUDE_CRASH_WINDOW"
	CrashDelay        = "SUPERCLAUDE_CRASH_DELAY"
	MaxRestarts       = "SUPERCLAUDE_MAX_RESTARTS"
	RestartWindow     = "SUPERCLAUDE_RESTART_WINDOW"
	// SessionRequired, "1", is the session gate: tools are refused until a
	// skill activates a session.
	SessionRequired = "SESSION_REQUIRED"
)

// DefaultAgent is the agent's command when neither $SUPERCLAUDE_AGENT nor a
// profile names another: Claude Code's.
const DefaultAgent = "claude"

// Adopts ends AgentParent's value when the agent's parent is a subreaper (a
// one-shot superclaude, a supervisor without a pty): an orphan it adopts
// has it as parent too, so the agent must also be its eldest child.
const Adopts = ":adopts"

// AgentParentValue is AgentParent's value for an agent started by parent
// with args: "pid:count:hash", the count of the arguments and their 64-bit
// FNV-1a hash in hex, each argument ended by a NUL. The arguments matter: a
// one-shot superclaude and a supervisor without a pty are subreapers, so
// what their agent leaves behind, orphaned, has them as parent too; running
// superclaude for itself, it would be taken for the agent but for its own
// arguments.
func AgentParentValue(parent int, args []string) string {
	h := uint64(14695981039346656037)
	for _, a := range args {
		for i := 0; i <= len(a); i++ {
			c := byte(0)
			if i < len(a) {
				c = a[i]
			}
			h = (h ^ uint64(c)) * 1099511628211
		}
	}
	const hex = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = hex[h&15]
		h >>= 4
	}
	return itoa(parent) + ":" + itoa(len(args)) + ":" + string(b[:])
}

// itoa formats a non-negative n in decimal (strconv is not imported: see
// the package comment).
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
