package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Code is one short mark superclaude puts on screen — a column title, a
// state word, a sign after a number — and what it means, for a person.
type Code struct {
	// Where it appears: "dashboard", "+status", "status line", "pane
	// border".
	Where string
	// Code is the mark as shown.
	Code string
	// Meaning says what it means and, where there is one, what to do.
	Meaning string
}

// Codes is every mark superclaude shows in its views, in the order a person
// meets them. It is the one source of their meanings: `+help codes` and
// the dashboard's ? print it, and docs/glossary.md carries it (a test
// holds the document to it).
var Codes = []Code{
	{"dashboard", "SESSION", "the session's name; its directory (your home as ~) where two sessions share a name"},
	{"dashboard", "HOST", "the host the session runs on (local: this machine); shown when your fleets run on other hosts too"},
	{"dashboard", "PANE", "the session's tmux pane: a fleet's session:window:label, another pane's %N"},
	{"dashboard", "STATE", "what the session's supervisor is doing: one of the words below"},
	{"dashboard", "running", "its supervisor runs and answers"},
	{"dashboard", "restarting, resuming, saving context", "its supervisor is restarting the agent, resuming its conversation, or having it save what it was doing"},
	{"dashboard", "stale", "its supervisor runs but did not answer within a second when the view asked: it may hang (w: +why)"},
	{"dashboard", "stopped", "its supervisor has ended; the session can be resumed by starting superclaude in its pane again"},
	{"dashboard", "halted", "superclaude stopped restarting the agent (it restarted too often, or without progress): w says why; +session reset lets it restart the agent again"},
	{"dashboard", "completed", "no agent works in the session any more: its skill completed it, or a skill's session took over from superclaude's own; nothing restarts it until +session activate activates it again, and a superclaude started in its pane takes it up"},
	{"dashboard", "held by a shell", "the session was activated by hand (+session activate) in a shell that still runs: no supervisor owns it, so nothing can restart or stop an agent in it, and a superclaude started in its pane starts a session of its own; it is let go when that shell exits, or once it is completed (+session deactivate)"},
	{"dashboard", "SKILL/PHASE", "the skill working in the session, and its phase"},
	{"dashboard", "CTX", "how full the agent's context window is; – for an agent that does not report it (only claude does)"},
	{"dashboard", "!", "after CTX: the context window filled up (past SUPERCLAUDE_OVERFLOW_THRESHOLD): tools wait until the agent saves its work, then superclaude restarts it with a fresh context"},
	{"dashboard", "COST", "what the agent's conversation has cost so far; – for an agent that does not report it (only claude does)"},
	{"dashboard", "INPUT", "yes: the agent waits for you (a question, a permission); no: it does not"},
	{"dashboard", "LIMIT", "a usage or rate limit the agent waits out, and how long until it resets"},
	{"dashboard", "RST", "how many times superclaude has restarted the agent in this session"},
	{"dashboard", "LAST EVENT", "how long ago the latest event was, and what it was (w shows them all)"},
	{"dashboard", "–", "nothing recorded: no value, or none yet"},
	{"+status", "STATE", "running (pid N): its supervisor, with its process id; stale (pid N); stopped (no pid: its supervisor is gone); held by a shell (pid N), completed: as in the dashboard"},
	{"+status", "AGENT", "what a running agent does: busy, idle, or NEEDS INPUT (it waits for you)"},
	{"+status", "LIFECYCLE", "where the session is in its life: active, completed, dehydrating (saving what the agent was doing), restarting, resuming (only while its supervisor runs)"},
	{"+status", "FLAGS", "overflowed (the context window filled up), restarting (a restart is under way), a limit and when it resets, HALTED (superclaude stopped restarting it)"},
	{"+status", "CONTEXT, COST, RESTARTS", "as CTX, COST and RST in the dashboard (– where the agent does not report it; --json leaves contextUsage and costUSD out)"},
	{"+status", "ACTIVITY", "how long ago the session last showed activity: its start or activation, the agent turning busy or idle, a phase or a log entry, the agent's last exit, a halt (+session prune --older-than counts idle time from the same moment)"},
	{"status line", "session · skill/phase · model · $cost · ctx N%", "the session claude works in, its skill and phase, the model, the conversation's cost, and how full the context window is (green, yellow near the limit, red past it)"},
	{"status line", "OVERFLOW: /superclaude:session dehydrate restart", "the context window filled up: claude is to run that command, which saves its work and restarts it with a fresh context (superclaude does it for claude if it cannot)"},
	{"status line", "saving context", "claude is saving what it was doing before a restart"},
	{"status line", "restarting", "a restart is under way"},
	{"status line", "fresh context after a restart", "this claude was started fresh after a restart, with what its predecessor saved"},
	{"status line", "5-hour usage limit · continues at 20:52", "claude stopped at a usage or rate limit; superclaude types continue once it resets (or claude does, or nobody: 'type to go on')"},
	{"pane border", "needs input", "the agent in that fleet pane waits for you; the mark goes once you answer"},
}

// WriteCodes writes the codes of where ("" for all) as an aligned list,
// grouped by where they appear.
func WriteCodes(w io.Writer, where string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	last := ""
	for _, c := range Codes {
		if where != "" && c.Where != where {
			continue
		}
		if c.Where != last && where == "" {
			if last != "" {
				fmt.Fprintln(tw)
			}
			fmt.Fprintf(tw, "%s:\n", c.Where)
			last = c.Where
		}
		fmt.Fprintf(tw, "  %s\t%s\n", c.Code, c.Meaning)
	}
	return tw.Flush()
}

// CodesMarkdown is the glossary's section of codes: one table per place
// they appear, as docs/glossary.md carries it.
func CodesMarkdown() string {
	var b strings.Builder
	last := ""
	for _, c := range Codes {
		if c.Where != last {
			if last != "" {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "### %s\n\n| mark | meaning |\n|---|---|\n", c.Where)
			last = c.Where
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(c.Code, "|", `\|`), strings.ReplaceAll(c.Meaning, "|", `\|`))
	}
	return b.String()
}
