package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// SessionView is one session as `+session list` and `+status` show it.
type SessionView struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	Pane string `json:"pane,omitempty"`
	PID  int    `json:"pid"`
	// OwnerAlive is whether its supervisor verified alive; State says
	// more: running, stale (alive, but it did not answer when asked:
	// MarkSupervisors) or stopped (the supervisor is gone).
	OwnerAlive bool `json:"ownerAlive"`
	// NoSupervisor is set when the owner is alive but no supervisor: a
	// shell where `+session activate` was typed by hand. Nothing can
	// restart or stop its agent (see MarkSupervisors).
	NoSupervisor bool            `json:"noSupervisor,omitempty"`
	State        string          `json:"state"`
	Skill        string          `json:"skill,omitempty"`
	Phase        string          `json:"phase,omitempty"`
	Lifecycle    state.Lifecycle `json:"lifecycle"`
	Overflowed   bool            `json:"overflowed"`
	// FreshAfterOverflow: the agent is the fresh one of an overflow
	// restart, whose context has not overflowed (Overflowed is false
	// then, whatever the old context did).
	FreshAfterOverflow bool `json:"freshAfterOverflow,omitempty"`
	// LimitContinue says who goes on after the limit resets:
	// superclaude, claude, or off (the person).
	LimitContinue string `json:"limitContinue,omitempty"`
	KillRequested bool   `json:"killRequested"`
	// ContextUsage is how full the agent's context window is, 0.0–1.0;
	// nil (left out of the JSON) for an agent whose CLI does not report
	// it (ReportsUsage).
	ContextUsage  *float64 `json:"contextUsage,omitempty"`
	SessionID     string   `json:"sessionId,omitempty"`
	LastHeartbeat string   `json:"lastHeartbeat,omitempty"`
	// LastActivity is the session's latest sign of life
	// (state.State.LastActivity).
	LastActivity string `json:"lastActivity,omitempty"`
	Restarts     int    `json:"restarts"`
	// Agent is what a running agent does: busy, idle, waiting (for the
	// user's input), or unknown when its CLI does not tell; empty when the
	// session is not running.
	Agent string `json:"agent,omitempty"`
	// AgentUnknown says why Agent is unknown: its CLI does not tell, or
	// what it tells cannot be read (an unreadable rollout file).
	AgentUnknown string `json:"agentUnknown,omitempty"`
	// Profile names the agent CLI (claude, codex, gemini …), when the
	// supervisor recorded it.
	Profile string `json:"profile,omitempty"`
	// ConversationUnknown says why the agent's conversation cannot be
	// learned: a restart starts a new one.
	ConversationUnknown string `json:"conversationUnknown,omitempty"`
	NeedsInput          bool   `json:"needsInput"`
	// CostUSD is what the conversation cost so far, left out when
	// nothing is known: 0, or an agent whose CLI does not report it.
	CostUSD float64 `json:"costUSD,omitempty"`
	// Limit and LimitedUntil: a usage or rate limit that stopped the
	// agent, and when it resets.
	Limit        string `json:"limit,omitempty"`
	LimitedUntil string `json:"limitedUntil,omitempty"`
	Halted       string `json:"halted,omitempty"`
	LastExit     string `json:"lastExit,omitempty"`
	// Host is the ssh destination of the machine the session is on, ""
	// for this one; a host that did not answer has one view of its own,
	// State Unreachable (see hosts.go).
	Host      string `json:"host,omitempty"`
	HostError string `json:"hostError,omitempty"`
	LastGood  string `json:"lastGood,omitempty"`
}

// ClaudeAgent is Claude Code's profile: the agent of every session and
// conversation recorded before the profile was.
const ClaudeAgent = "claude"

// ReportsUsage reports whether the agent of profile reports how full its
// context window is and what its conversation cost: only Claude Code
// does, through its status line. The views show "–" for the others
// rather than a 0 % and a $0.00 nothing measured (docs/agent-clis.md). A
// session recorded before its profile was is Claude Code's.
func ReportsUsage(profile string) bool { return profile == "" || profile == ClaudeAgent }

// States of a session in a view.
const (
	Running = "running"
	Stale   = "stale"
	Stopped = "stopped"
)

// View summarises one session; alive is whether its owner verified alive,
// now the time of the view. A live owner shows as running until
// MarkSupervisors has asked it: what its state file says cannot tell a
// hung supervisor from one whose agent is quiet (issue 22: a supervisor
// writes nothing while nothing changes).
func View(s state.Session, alive bool, now time.Time) SessionView {
	st := s.State
	if !alive && st.Lifecycle.Transient() {
		// No supervisor is restarting or resuming anything: shown as its
		// run's end leaves it (State.Settle), which one killed before it
		// could write did not.
		st = st.Clone()
		st.Settle()
	}
	v := SessionView{
		Name: s.Name, Dir: s.Dir, Pane: st.FleetPaneID, PID: st.PID, OwnerAlive: alive,
		Skill: st.Skill, Phase: st.CurrentPhase, Lifecycle: st.Lifecycle,
		Overflowed: st.Overflowed && !st.FreshAfterOverflow(), KillRequested: st.KillRequested,
		FreshAfterOverflow: st.FreshAfterOverflow(), LimitContinue: st.LimitContinue,
		SessionID: st.SessionID, Restarts: st.Restarts,
		Limit: st.Limit, Halted: st.Halted, LastExit: st.LastExit,
		Profile: st.AgentProfile, ConversationUnknown: st.ConversationUnknown,
	}
	if ReportsUsage(st.AgentProfile) {
		usage := st.ContextUsage
		v.ContextUsage, v.CostUSD = &usage, st.CostUSD
	}
	if alive {
		v.State = Running
		v.Agent = st.AgentStatus
		if v.Agent == "unknown" {
			v.AgentUnknown = st.AgentUnknown
		}
		v.NeedsInput = st.AgentStatus == "waiting"
	} else {
		v.State = Stopped
	}
	if !st.LastHeartbeat.IsZero() {
		v.LastHeartbeat = state.FormatTime(st.LastHeartbeat)
	}
	if last := st.LastActivity(); !last.IsZero() {
		v.LastActivity = state.FormatTime(last)
	}
	if !st.LimitedUntil.IsZero() {
		v.LimitedUntil = state.FormatTime(st.LimitedUntil)
	}
	return v
}

// MarkSupervisors asks the live owners of views whether they answer as
// supervisors (ask, given the owners, all at once: control.Ask; owners[i]
// is views[i]'s), and marks the views: NoSupervisor for an owner that
// serves no control socket — every supervisor does, a shell that ran
// `+session activate` does not — and stale for one that serves one and
// did not answer in time: it may hang. Only live owners are asked. A
// completed session whose owner is a shell is stopped, not held: the
// shell completed it, and nothing runs in it.
func MarkSupervisors(views []SessionView, owners []proc.Identity, ask func([]proc.Identity) []control.Answer) {
	var idx []int
	var live []proc.Identity
	for i := range views {
		if views[i].OwnerAlive && views[i].PID > 0 {
			idx = append(idx, i)
			live = append(live, owners[i])
		}
	}
	if len(live) == 0 {
		return
	}
	for k, a := range ask(live) {
		v := &views[idx[k]]
		switch a {
		case control.NoSocket:
			if v.Lifecycle == state.Completed {
				// The shell that activated it completed it (issue 19:
				// it showed as held by a shell): it holds nothing
				// now, and no agent works in it.
				v.State, v.Agent, v.NeedsInput = Stopped, "", false
				continue
			}
			v.NoSupervisor = true
		case control.Silent:
			v.State, v.Agent, v.NeedsInput = Stale, "", false
		}
	}
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonAppender appends itself as json.Marshal writes it; ok false when
// it cannot, and json.Marshal says why.
type jsonAppender interface {
	AppendJSON(b []byte) (_ []byte, ok bool)
}

// WriteJSONArray writes items as a JSON array with one item per line.
// Indenting 10,000 sessions as WriteJSON does took a third of a
// `+status --json`'s time; a line per session is as easy to read and to
// grep, and jq reads it the same.
func WriteJSONArray[T any](w io.Writer, items []T) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	var buf []byte
	for i := range items {
		b, ok := buf[:0], false
		if a, can := any(&items[i]).(jsonAppender); can {
			b, ok = a.AppendJSON(b) // SessionView's, without reflection
			buf = b
		}
		if !ok {
			var err error
			if b, err = json.Marshal(items[i]); err != nil {
				return err
			}
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		bw.Write(b)
	}
	if len(items) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// displayNames is the SESSION column of views (DisplayNames).
func displayNames(views []SessionView, home string) []string {
	names, dirs := make([]string, len(views)), make([]string, len(views))
	for i, v := range views {
		names[i], dirs[i] = v.Name, v.Dir
	}
	return DisplayNames(names, dirs, home)
}

// DisplayNames is how every view names sessions: each session's name, or,
// where two sessions of different sessions directories share a name (a
// "demo" in two projects), its directory, with home written ~, so that the
// rows can be told apart and the right one named to a command.
func DisplayNames(names, dirs []string, home string) []string {
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if count[n] > 1 && dirs[i] != "" {
			out[i] = dirs[i]
			if home != "" && strings.HasPrefix(dirs[i], home+"/") {
				out[i] = "~" + strings.TrimPrefix(dirs[i], home)
			}
		}
	}
	return out
}

// WriteTable writes sessions as an aligned table. now renders the times
// of activity as ages.
func WriteTable(w io.Writer, views []SessionView, now time.Time) error {
	return writeTable(w, views, now, hasHosts(views))
}

// WriteHostBlock writes one machine's block of a view that covers several
// (this machine's, or one host's, as it answers): a table with the HOST
// column, its header left out when the block is only a host that did not
// answer.
func WriteHostBlock(w io.Writer, views []SessionView, now time.Time) error {
	return writeTable(w, views, now, true)
}

func writeTable(w io.Writer, views []SessionView, now time.Time, hosts bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := !hosts || slices.ContainsFunc(views, func(v SessionView) bool { return v.State != Unreachable })
	if header && hosts {
		fmt.Fprint(tw, "HOST\t")
	}
	if header {
		fmt.Fprintln(tw, "SESSION\tPANE\tSTATE\tAGENT\tLIFECYCLE\tFLAGS\tCONTEXT\tCOST\tACTIVITY\tRESTARTS")
	}
	names := displayNames(views, os.Getenv("HOME"))
	for i, v := range views {
		if hosts {
			if v.State == Unreachable {
				fmt.Fprintln(tw, termtext.Clean(v.Host)+"\t"+termtext.Clean(unreachableLine(v, now)))
				continue
			}
			fmt.Fprint(tw, termtext.Clean(hostCell(v.Host))+"\t")
		}
		where := v.State
		switch {
		case v.Lifecycle == state.Completed:
			// Its skill is done: no agent works in it, whoever still
			// owns it (the dashboard's STATE says the same).
			where = "completed"
		case v.PID > 0 && v.NoSupervisor:
			// Its owner is the shell where it was activated by hand
			// (cli.Codes says what that means).
			where = fmt.Sprintf("held by a shell (pid %d)", v.PID)
		case v.PID > 0 && v.State != Stopped:
			// A stopped row's pid is only the last supervisor's, gone
			// (+help codes: the pid of a running one).
			where += fmt.Sprintf(" (pid %d)", v.PID)
		}
		agent := dash(v.Agent)
		if v.NeedsInput {
			agent = "NEEDS INPUT"
		}
		if v.AgentUnknown != "" {
			agent += " (" + v.AgentUnknown + ")"
		}
		if v.Profile != "" && v.Profile != "claude" {
			agent = v.Profile + ": " + agent
		}
		var flags []string
		if v.Overflowed {
			flags = append(flags, "overflowed")
		}
		if v.FreshAfterOverflow {
			flags = append(flags, "fresh after overflow")
		}
		if v.KillRequested {
			flags = append(flags, "restarting")
		}
		if v.Limit != "" {
			switch v.LimitContinue {
			case state.LimitByNobody:
				flags = append(flags, v.Limit+" until "+clock(v.LimitedUntil)+" (you go on)")
			case state.LimitByClaude:
				flags = append(flags, v.Limit+" until "+clock(v.LimitedUntil)+" (claude goes on)")
			default:
				flags = append(flags, v.Limit+" until "+clock(v.LimitedUntil))
			}
		}
		if v.Halted != "" {
			flags = append(flags, "HALTED")
		}
		if v.ConversationUnknown != "" {
			flags = append(flags, "conversation unknown")
		}
		// Every cell goes through termtext.Clean: values from the state
		// file must carry no escape sequence to the terminal, and no tab
		// or newline that breaks the table.
		cells := []string{
			names[i], dash(tmux.Short(v.Pane)), where, agent, string(v.Lifecycle), dash(strings.Join(flags, ",")),
			v.contextCell(), v.costCell(),
			Age(v.LastActivity, now), strconv.Itoa(v.Restarts),
		}
		for i, c := range cells {
			cells[i] = termtext.Clean(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// contextCell is the CONTEXT column: how full the context window is, or
// "–" for an agent that does not report it.
func (v SessionView) contextCell() string {
	if v.ContextUsage == nil || !ReportsUsage(v.Profile) {
		return "–"
	}
	return fmt.Sprintf("%d%%", int(*v.ContextUsage*100+0.5))
}

// costCell is the COST column, "–" for an agent that does not report it.
func (v SessionView) costCell() string {
	if !ReportsUsage(v.Profile) {
		return "–"
	}
	return fmt.Sprintf("$%.2f", v.CostUSD)
}

// clock renders an RFC 3339 time as the local time of day.
func clock(ts string) string {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	return t.Local().Format("15:04")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Age renders an RFC 3339 time as how long ago it was ("12s ago", "3h ago").
func Age(ts string, now time.Time) string {
	if ts == "" {
		return "-"
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}
