package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/state"
)

// Conversation is one conversation a session (or a pane) has had, as the
// event log tells it: what `+history` lists and `+resume N` resumes.
type Conversation struct {
	// N numbers the list, oldest first, from 1.
	N int `json:"n"`
	// ID is the agent's conversation id.
	ID string `json:"id"`
	// Agent names the agent profile that had it (claude, codex, gemini
	// …), and Command the agent's command it ran: +resume N resumes it
	// with them. A conversation logged before they were recorded was
	// claude's (Agent "claude", Command "").
	Agent   string `json:"agent"`
	Command string `json:"command,omitempty"`
	// Session is the session it ran in; Pane the pane.
	Session string `json:"session"`
	Pane    string `json:"pane,omitempty"`
	// Start and End bound its runs; Runs counts them (a resume is a run).
	Start time.Time `json:"start"`
	End   time.Time `json:"end,omitzero"`
	Runs  int       `json:"runs"`
	// Why says how its last run ended (a cause of supervise: crash, limit,
	// no-progress, user-exit, stopped, restarted), "running" while it
	// runs.
	Why string `json:"why"`
	// CostUSD is the most it was seen to cost; Transcript its transcript.
	CostUSD    float64 `json:"costUSD,omitempty"`
	Transcript string  `json:"transcript,omitempty"`
	// FirstPrompt and LastPrompt are filled in from the transcript, the
	// file the agent's CLI keeps the conversation in; PromptsUnknown is
	// set when it cannot be read (none is known, or it is gone).
	FirstPrompt    string `json:"firstPrompt,omitempty"`
	LastPrompt     string `json:"lastPrompt,omitempty"`
	PromptsUnknown bool   `json:"promptsUnknown,omitempty"`
	// Overflowed says its context filled up: resuming it starts at a
	// full context window, at full cost (ResumeWarning).
	Overflowed bool `json:"overflowed,omitempty"`
}

// ResumeWarning is what +resume says before it resumes c, or "" when
// there is nothing to warn of: a conversation whose context overflowed
// is resumed with its whole context, which fills the window again at once
// and costs it in full, where superclaude itself would have started fresh
// from its dehydrated context.
func ResumeWarning(c Conversation) string {
	if !c.Overflowed {
		return ""
	}
	return fmt.Sprintf("conversation %s overflowed its context window: resuming it sends the whole full context again, "+
		"at full cost, and it will overflow again at once. superclaude itself starts such a session fresh, from its saved "+
		"context (run superclaude in its pane, or `superclaude +session restart --session %s`).", c.ID, c.Session)
}

// History builds the conversations of the agent runs in evs (the event
// log, oldest first): each agent-start opens a run, its agent-exit ends it
// and names the conversation it ran. Runs of one conversation (resumes)
// are one entry. keep says which runs count (a session's, a pane's).
func History(evs []state.Event, keep func(session, pane string) bool) []Conversation {
	type run struct {
		start time.Time
		pane  string
	}
	open := map[string]run{} // session → its running agent
	byID := map[string]*Conversation{}
	var order []*Conversation
	for _, ev := range evs {
		pane, _ := ev.Detail["pane"].(string)
		switch ev.Kind {
		case "agent-start":
			open[ev.Session] = run{ev.Time, pane}
		case "agent-exit":
			r, ok := open[ev.Session]
			delete(open, ev.Session)
			id, _ := ev.Detail["conversation"].(string)
			if id == "" || !keep(ev.Session, pane) {
				continue
			}
			c := byID[id]
			if c == nil {
				c = &Conversation{ID: id, Session: ev.Session, Pane: pane, Start: ev.Time}
				if ok {
					c.Start = r.start
				}
				byID[id] = c
				order = append(order, c)
			}
			c.Runs++
			c.End = ev.Time
			c.Why, _ = ev.Detail["cause"].(string)
			if cost, _ := ev.Detail["costUSD"].(float64); cost > c.CostUSD {
				c.CostUSD = cost
			}
			if tr, _ := ev.Detail["transcript"].(string); tr != "" {
				c.Transcript = tr
			}
			if o, _ := ev.Detail["overflowed"].(bool); o {
				c.Overflowed = true
			}
			c.Agent, _ = ev.Detail["profile"].(string)
			c.Command, _ = ev.Detail["command"].(string)
			if c.Agent == "" {
				c.Agent = ClaudeAgent
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].Start.Before(order[j].Start) })
	out := make([]Conversation, len(order))
	for i, c := range order {
		c.N = i + 1
		out[i] = *c
	}
	return out
}

// WriteHistory writes conversations as a table: what each one's agent
// did not report (the cost of any but Claude Code's) is "–", and a prompt
// that cannot be read "unknown".
func WriteHistory(w io.Writer, cs []Conversation) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tCONVERSATION\tAGENT\tSESSION\tSTART\tEND\tWHY\tCOST\tFIRST PROMPT\tLAST PROMPT")
	for _, c := range cs {
		end := "-"
		if !c.End.IsZero() {
			end = c.End.Local().Format("01-02 15:04")
		}
		cost := "–"
		if ReportsUsage(c.Agent) {
			cost = fmt.Sprintf("$%.2f", c.CostUSD)
		}
		first, last := clip(c.FirstPrompt, 40), clip(c.LastPrompt, 40)
		if c.PromptsUnknown {
			first, last = "unknown", "unknown"
		}
		cells := []string{strconv.Itoa(c.N), c.ID, dash(c.Agent), c.Session, c.Start.Local().Format("01-02 15:04"), end,
			dash(endedWhy(c.Why)), cost, first, last}
		for i := range cells {
			cells[i] = termtext.Clean(cells[i])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// endedWhy words how a conversation's last run ended (a cause of
// supervise's, which --json keeps), short enough for a column.
func endedWhy(cause string) string {
	if w, ok := map[string]string{
		"crash": "crashed", "limit": "usage limit", "no-progress": "no progress", "restart-loop": "restarted too often",
		"user-exit": "you exited", "stopped": "stopped", "restarted": "restarted",
	}[cause]; ok {
		return w
	}
	return cause
}

// clip shortens s to n characters on one line, for a table.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return dash(s)
}

// Confirm puts question to the person on out and reads the answer from
// in: yes only for an answer that starts with y. Input that is not a
// terminal's, or ends, is a no: a script must say --yes.
func Confirm(in io.Reader, out io.Writer, question string) bool {
	if f, ok := in.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(out, strings.TrimSpace(question)+" no: the input is not a terminal")
		return false
	}
	fmt.Fprint(out, question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "y")
}
