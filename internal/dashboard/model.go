package dashboard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/tmux"
)

// DefaultRefresh is how often the dashboard reads the sessions again.
const DefaultRefresh = 2 * time.Second

// Config is what a [Model] is made of.
type Config struct {
	// Source is the world.
	Source Source
	// Refresh is the interval between readings (DefaultRefresh when 0).
	Refresh time.Duration
	// Context bounds every call to the Source (Background when nil).
	Context context.Context
}

// Model is the dashboard's state. It is a value: Update returns the next
// one, and nothing in it changes behind Update's back.
type Model struct {
	src     Source
	ctx     context.Context
	refresh time.Duration
	styles  styles
	// after schedules msg after d: tea.Tick in a program; tests replace it
	// so that nothing sleeps.
	after func(d time.Duration, msg tea.Msg) tea.Cmd

	rows []Row
	// cells are the rows drawn as text, each cell but the last cut or
	// padded to its column's width, lineWidths each row's width joined,
	// and widths the columns': made once per reading (they change with
	// nothing else), so that a key press only joins and styles the rows
	// in view. Measuring and cutting text is most of a render's cost.
	cells      [][]string
	lineWidths []int
	widths     []int
	problems   []string
	now        time.Time
	loaded     bool
	// hosts is set when the reading covers other hosts: a HOST column;
	// unreachable are the lines of those that did not answer.
	hosts       bool
	unreachable []string
	// loading is true while a reading is under way; gen numbers the
	// timer chain, so that a refresh asked for by a key does not start a
	// second chain of ticks.
	loading bool
	gen     int

	sel, top      int
	width, height int

	// confirm is the action waiting for y/n, nil when none.
	confirm *pending
	// why is the open +why view, nil when the list shows.
	why *whyView
	// note is the line under the table: the outcome of the last action.
	note    string
	noteErr bool
}

// pending is an action waiting for its confirmation.
type pending struct {
	act action
	row Row
}

// action is what a key asks a session's supervisor to do.
type action int

// The dashboard's actions: two restarts, told apart by what the agent
// comes back with — its conversation, or a fresh context — and a stop.
const (
	restartResume action = iota
	restartFresh
	stop
)

// actionKeys maps each action's key to it.
var actionKeys = map[string]action{"r": restartResume, "f": restartFresh, "s": stop}

// verb is the action as a note says it.
func (a action) verb() string {
	return [...]string{"restart", "fresh start", "stop"}[a]
}

// question is the confirmation the action asks for.
func (a action) question() string {
	return [...]string{
		"Restart the agent of session %s, resuming its conversation (pane %s, supervisor pid %d)? y/n",
		"Start the agent of session %s again with a fresh context: it saves what it was doing, and the new agent carries on from that, not from the conversation (pane %s, supervisor pid %d)? y/n",
		"Stop the agent of session %s (pane %s, supervisor pid %d)? y/n",
	}[a]
}

// whyView is the scrollable +why of one session, or, with a title of
// its own, another page of lines (the legend).
type whyView struct {
	row   Row
	title string
	lines []string
	top   int
}

// Messages.
type (
	tickMsg struct{ gen int }
	rowsMsg struct {
		snap Snapshot
		err  error
	}
	actionMsg struct {
		act     action
		row     Row
		waiting bool
		err     error
	}
	whyMsg struct {
		row   Row
		lines []string
		err   error
	}
	attachMsg struct {
		row Row
		cmd *exec.Cmd
		err error
	}
	attachDoneMsg struct {
		row Row
		err error
	}
)

// New returns the dashboard's model; its Init reads the sessions.
func New(c Config) Model {
	m := Model{src: c.Source, ctx: c.Context, refresh: c.Refresh, loading: true}
	if m.ctx == nil {
		m.ctx = context.Background()
	}
	if m.refresh <= 0 {
		m.refresh = DefaultRefresh
	}
	m.styles = newStyles(colorprofile.Unknown)
	m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		return tea.Tick(d, func(time.Time) tea.Msg { return msg })
	}
	return m
}

// Init starts the first reading.
func (m Model) Init() tea.Cmd { return m.read() }

// Update is the dashboard's whole behaviour: the next model for a message,
// and the command that does the I/O the message calls for.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.clamp()
		return m, nil
	case tea.ColorProfileMsg:
		// The program's reading of the terminal, sent at its start.
		m.styles = newStyles(msg.Profile)
		return m, nil
	case tickMsg:
		if msg.gen != m.gen || m.loading {
			return m, nil
		}
		m.loading = true
		return m, m.read()
	case rowsMsg:
		return m.gotRows(msg)
	case actionMsg:
		switch {
		case msg.err != nil:
			m.setNote(true, "%s of %s: %v", msg.act.verb(), msg.row.name(), msg.err)
		case msg.waiting:
			m.setNote(false, "%s of %s requested: the agent is in the middle of a turn; its supervisor acts once the turn ends (a minute at most)",
				msg.act.verb(), msg.row.name())
		default:
			m.setNote(false, "%s of %s requested: its supervisor is on it", msg.act.verb(), msg.row.name())
		}
		return m.refreshNow()
	case whyMsg:
		if msg.err != nil {
			m.setNote(true, "why %s: %v", msg.row.name(), msg.err)
			return m, nil
		}
		m.why = &whyView{row: msg.row, lines: msg.lines}
		m.why.top = max(0, len(msg.lines)-m.whyHeight())
		return m, nil
	case attachMsg:
		switch {
		case msg.err != nil:
			m.setNote(true, "attach %s: %v", msg.row.name(), msg.err)
		case msg.cmd != nil:
			row := msg.row
			return m, tea.ExecProcess(msg.cmd, func(err error) tea.Msg { return attachDoneMsg{row: row, err: err} })
		default:
			m.setNote(false, "switched to pane %s", displayPane(msg.row.Pane))
		}
		return m, nil
	case attachDoneMsg:
		if msg.err != nil {
			m.setNote(true, "attach %s: %v", msg.row.name(), msg.err)
		} else {
			m.setNote(false, "back from pane %s", displayPane(msg.row.Pane))
		}
		return m.refreshNow()
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

func (m Model) gotRows(msg rowsMsg) (tea.Model, tea.Cmd) {
	m.loading = false
	m.gen++
	next := m.after(m.refresh, tickMsg{gen: m.gen})
	if msg.err != nil {
		m.setNote(true, "reading sessions: %v", msg.err)
		return m, next
	}
	var selected string
	if m.sel < len(m.rows) {
		selected = m.rows[m.sel].key()
	}
	m.rows = sortRows(msg.snap.Rows)
	m.hosts = len(msg.snap.Hosts) > 0
	m.unreachable = msg.snap.Unreachable
	m.problems = msg.snap.Problems
	m.now = msg.snap.At
	m.loaded = true
	raw := make([][]string, len(m.rows))
	for i, r := range m.rows {
		raw[i] = m.rowCells(r)
	}
	m.widths = columnWidths(m.cols(), raw)
	m.cells, m.lineWidths = make([][]string, len(raw)), make([]int, len(raw))
	for i, c := range raw {
		m.cells[i], m.lineWidths[i] = padCells(m.cols(), c, m.widths)
	}
	// The selection follows its session when rows move.
	for i, r := range m.rows {
		if r.key() == selected {
			m.sel = i
			break
		}
	}
	m.clamp()
	return m, next
}

// refreshNow reads the sessions again now, unless a reading is under way.
func (m Model) refreshNow() (tea.Model, tea.Cmd) {
	if m.loading {
		return m, nil
	}
	m.loading = true
	return m, m.read()
}

func (m *Model) setNote(isErr bool, format string, args ...any) {
	m.note, m.noteErr = fmt.Sprintf(format, args...), isErr
}

// key handles one key press.
func (m Model) key(k string) (tea.Model, tea.Cmd) {
	if k == "ctrl+c" {
		return m, tea.Quit
	}
	switch {
	case m.confirm != nil:
		return m.confirmKey(k)
	case m.why != nil:
		return m.whyKey(k), nil
	}
	switch k {
	case "q":
		return m, tea.Quit
	case "up", "k":
		m.sel--
	case "down", "j":
		m.sel++
	case "pgup":
		m.sel -= max(1, m.listHeight())
	case "pgdown":
		m.sel += max(1, m.listHeight())
	case "home", "g":
		m.sel = 0
	case "end", "G":
		m.sel = len(m.rows) - 1
	case "u":
		m.note = ""
		return m.refreshNow()
	case "esc":
		m.note = ""
	case "enter", "a":
		row, ok := m.selected()
		if !ok {
			return m, nil
		}
		if row.Pane == "" {
			m.setNote(true, "session %s has no pane to attach to", row.name())
			return m, nil
		}
		return m, m.attach(row)
	case "r", "f", "s":
		row, ok := m.selected()
		if !ok {
			return m, nil
		}
		act := actionKeys[k]
		verb := act.verb()
		if row.Lifecycle == "completed" {
			m.setNote(true, "cannot %s %s: it is completed, no agent works in it", verb, row.name())
			return m, nil
		}
		if row.Status == Stopped {
			m.setNote(true, "cannot %s %s: it is stopped, no superclaude runs its agent", verb, row.name())
			return m, nil
		}
		if row.NoSupervisor {
			m.setNote(true, "cannot %s %s: it is held by pid %d, a shell where it was activated by hand, not a supervisor; it is let go when that shell exits",
				verb, row.name(), row.Supervisor.PID)
			return m, nil
		}
		m.confirm = &pending{act: act, row: row}
		m.note = ""
	case "w":
		row, ok := m.selected()
		if !ok {
			return m, nil
		}
		return m, m.whyOf(row)
	case "?":
		var b strings.Builder
		cli.WriteCodes(&b, "dashboard")
		b.WriteString("\nkeys: ↑/↓ or j/k select · enter or a attach to its pane · r restart, resuming the conversation · " +
			"f fresh start · s stop · w its +why · u read again now · q quit\n")
		m.why = &whyView{title: "what the dashboard's columns and words mean (superclaude +help codes has them all)",
			lines: strings.Split(strings.TrimRight(b.String(), "\n"), "\n")}
		return m, nil
	}
	m.clamp()
	return m, nil
}

func (m Model) confirmKey(k string) (tea.Model, tea.Cmd) {
	p := m.confirm
	m.confirm = nil
	if k != "y" && k != "Y" {
		m.setNote(false, "%s of %s cancelled", p.act.verb(), p.row.name())
		return m, nil
	}
	m.setNote(false, "%s of %s: asking its supervisor (pid %d)…", p.act.verb(), p.row.name(), p.row.Supervisor.PID)
	return m, m.do(p.act, p.row)
}

func (m Model) whyKey(k string) Model {
	w := *m.why
	h := m.whyHeight()
	switch k {
	case "q", "esc", "w":
		m.why = nil
		return m
	case "up", "k":
		w.top--
	case "down", "j":
		w.top++
	case "pgup", "b":
		w.top -= h
	case "pgdown", "space", "f":
		w.top += h
	case "home", "g":
		w.top = 0
	case "end", "G":
		w.top = len(w.lines)
	}
	w.top = min(w.top, len(w.lines)-h)
	w.top = max(w.top, 0)
	m.why = &w
	return m
}

func (m Model) selected() (Row, bool) {
	if m.sel < 0 || m.sel >= len(m.rows) {
		return Row{}, false
	}
	return m.rows[m.sel], true
}

// clamp keeps the selection on a row and in view.
func (m *Model) clamp() {
	m.sel = min(m.sel, len(m.rows)-1)
	m.sel = max(m.sel, 0)
	h := m.listHeight()
	if h <= 0 {
		m.top = 0
		return
	}
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+h {
		m.top = m.sel - h + 1
	}
	m.top = min(m.top, max(0, len(m.rows)-h))
	m.top = max(m.top, 0)
}

// Commands: the only places the model reaches the Source.

func (m Model) read() tea.Cmd {
	src, ctx := m.src, m.ctx
	return func() tea.Msg {
		snap, err := src.Rows(ctx)
		return rowsMsg{snap: snap, err: err}
	}
}

func (m Model) do(act action, row Row) tea.Cmd {
	src, ctx := m.src, m.ctx
	return func() tea.Msg {
		var waiting bool
		var err error
		if act == stop {
			err = src.Stop(ctx, row)
		} else {
			waiting, err = src.Restart(ctx, row, act == restartFresh)
		}
		return actionMsg{act: act, row: row, waiting: waiting, err: err}
	}
}

func (m Model) whyOf(row Row) tea.Cmd {
	src, ctx := m.src, m.ctx
	return func() tea.Msg {
		lines, err := src.Why(ctx, row)
		return whyMsg{row: row, lines: lines, err: err}
	}
}

func (m Model) attach(row Row) tea.Cmd {
	src, ctx := m.src, m.ctx
	return func() tea.Msg {
		cmd, err := src.Attach(ctx, row)
		return attachMsg{row: row, cmd: cmd, err: err}
	}
}

// paneRank orders sessions by their pane: a fleet's labelled pane, another
// pane, none.
func paneRank(pane string) int {
	switch {
	case pane == "":
		return 2
	case tmux.Labelled(pane):
		return 0
	}
	return 1
}

// sortRows orders rows for the list, by what does not change while a
// session lives: this machine's first, then by host; on each, sessions
// in a fleet's (labelled) pane first, then in another pane, then without
// one; by pane, then by name and directory. It sorts a copy.
//
// Not by state: a session that stops, restarts or goes stale keeps its
// place, and the selection with it. (Running sessions once came first,
// and the selection jumped to the bottom after s stopped one.)
func sortRows(rows []Row) []Row {
	out := append([]Row(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if paneRank(a.Pane) != paneRank(b.Pane) {
			return paneRank(a.Pane) < paneRank(b.Pane)
		}
		if a.Pane != b.Pane {
			return a.Pane < b.Pane
		}
		if a.Session != b.Session {
			return a.Session < b.Session
		}
		return a.Dir < b.Dir
	})
	names, dirs := make([]string, len(out)), make([]string, len(out))
	for i, r := range out {
		names[i], dirs[i] = r.Host+"\x00"+r.Session, r.Dir
	}
	for i, d := range cli.DisplayNames(names, dirs, os.Getenv("HOME")) {
		if d != names[i] {
			out[i].display = d
		}
	}
	return out
}
