package dashboard

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// none marks a value the state does not record.
const none = "–"

// styles are the dashboard's colours and attributes, as SGR sequences: the
// program's renderer brings them down to what the terminal can show (no
// colours under NO_COLOR). They are x/ansi's and not Lip Gloss's on
// purpose: Lip Gloss v2 detects the colour profile of stdout when its
// package is initialised (reading terminfo, and running `tmux info` under
// tmux), which every superclaude process would pay for, dashboard or not.
type styles struct {
	title, header, selected, note, err, confirm, help ansi.Style
	status                                            map[Status]ansi.Style
	needsInput                                        ansi.Style
}

// newStyles returns the styles for a terminal of the profile: none on one
// that shows no styles at all (TERM=dumb; the tests' plain text).
func newStyles(p colorprofile.Profile) styles {
	if p == colorprofile.NoTTY {
		return styles{status: map[Status]ansi.Style{}}
	}
	s := ansi.NewStyle
	return styles{
		title:    s().Bold(),
		header:   s().Bold().Underline(true),
		selected: s().Reverse(true),
		note:     s(),
		err:      s().ForegroundColor(ansi.Red),
		confirm:  s().Bold().ForegroundColor(ansi.Yellow),
		help:     s().Faint(),
		status: map[Status]ansi.Style{
			Running: s().ForegroundColor(ansi.Green),
			Stale:   s().ForegroundColor(ansi.Yellow),
			Stopped: s().Faint(),
		},
		needsInput: s().Bold().ForegroundColor(ansi.Magenta),
	}
}

// column is one column of the list.
type column struct {
	title string
	// max caps the column's width; 0 means it takes what is left.
	max   int
	right bool
}

var columns = []column{
	{title: "SESSION", max: 28},
	{title: "PANE", max: 28},
	{title: "STATE", max: 19},
	{title: "SKILL/PHASE", max: 24},
	{title: "CTX", max: 5, right: true},
	{title: "COST", max: 8, right: true},
	{title: "INPUT", max: 5},
	{title: "LIMIT", max: 16},
	{title: "RST", max: 3, right: true},
	{title: "LAST EVENT"},
}

// Column indexes whose cells get a colour of their own (in columns: one
// more with a HOST column in front).
const (
	colState = 2
	colInput = 6
)

// hostColumn leads the list when it shows sessions of other hosts.
var hostColumn = column{title: "HOST", max: 20}

// cols are the list's columns: a HOST column first when the dashboard
// covers other hosts.
func (m Model) cols() []column {
	if m.hosts {
		return append([]column{hostColumn}, columns...)
	}
	return columns
}

// rowCells renders a row's values as the list's cells, cleaned of
// anything a terminal would act on (a state file is anyone's to write).
func (m Model) rowCells(r Row) []string {
	skill := none
	if r.Skill != "" || r.Phase != "" {
		skill = r.Skill
		if r.Phase != "" {
			skill += "/" + r.Phase
		}
	}
	ctx := none
	if r.Context != nil {
		ctx = fmt.Sprintf("%d%%", int(*r.Context*100+0.5))
	}
	if r.Overflowed {
		ctx += "!"
	}
	cost := none
	if r.Cost != nil {
		cost = fmt.Sprintf("$%.2f", *r.Cost)
	}
	input := none
	if r.NeedsInput != nil {
		input = map[bool]string{true: "yes", false: "no"}[*r.NeedsInput]
	}
	last := none
	if r.LastEvent != "" {
		last = r.LastEvent
		if !r.LastEventAt.IsZero() && !m.now.IsZero() {
			last = cli.Age(state.FormatTime(r.LastEventAt), m.now) + "  " + last
		}
	}
	limit := orNone(r.Limit)
	if r.Limit != "" && r.LimitUntil.After(m.now) && !m.now.IsZero() {
		limit += " " + until(r.LimitUntil.Sub(m.now))
	}
	out := []string{r.name(), displayPane(r.Pane), stateWord(r), skill, ctx, cost, input, limit, fmt.Sprint(r.Restarts), last}
	if m.hosts {
		host := r.Host
		if host == "" {
			host = "local"
		}
		out = append([]string{host}, out...)
	}
	for i := range out {
		out[i] = clean(out[i])
	}
	return out
}

// stateWord is the STATE column: one word or phrase per state, each in
// cli.Codes (what +help codes and ? explain).
func stateWord(r Row) string {
	switch {
	case r.Lifecycle == "completed":
		// No agent works in it, whoever still owns it (a shell, or a
		// supervisor whose agent works in another session now).
		return "completed"
	case r.Halted != "" && r.Status == Stopped:
		return "halted"
	case r.NoSupervisor:
		return "held by a shell"
	case r.Status == Running && r.Lifecycle == "dehydrating":
		return "saving context"
	case r.Status == Running && (r.Lifecycle == "restarting" || r.Lifecycle == "resuming"):
		return r.Lifecycle
	}
	return string(r.Status)
}

// until renders how long until a limit resets: "45s", "12m", "3h".
func until(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

// displayPane shortens a pane identity for the list: a labelled pane's
// session:window:label as it is, an unlabelled one's %N without the
// server it is unique to.
func displayPane(id string) string {
	if id == "" {
		return none
	}
	return tmux.Short(id)
}

// listHeight is how many rows fit: the screen less the title, the header,
// the note and the help line; every row when the size is not known yet.
func (m Model) listHeight() int {
	if m.height <= 0 {
		return len(m.rows)
	}
	return max(1, m.height-4)
}

// whyHeight is how many lines of +why fit: the screen less its title and
// help line.
func (m Model) whyHeight() int {
	if m.height <= 0 {
		if m.why != nil {
			return len(m.why.lines)
		}
		return 0
	}
	return max(1, m.height-2)
}

// View draws the model on the alternate screen.
func (m Model) View() tea.View {
	v := tea.NewView(m.draw())
	v.AltScreen = true
	return v
}

// draw renders the screen's text.
func (m Model) draw() string {
	if m.why != nil {
		return m.viewWhy()
	}
	var b strings.Builder
	b.WriteString(m.fit(m.styles.title, m.title()))
	b.WriteByte('\n')

	visible := m.rows[m.top:min(len(m.rows), m.top+m.listHeight())]
	cols := m.cols()
	widths := m.widths
	if widths == nil {
		widths = columnWidths(cols, nil)
	}
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.title
	}
	header, _ := padCells(cols, titles, widths)
	b.WriteString(m.fit(m.styles.header, "  "+joinCells(header, nil)))
	b.WriteByte('\n')
	for i, r := range visible {
		cells, w := m.cells[m.top+i], 2+m.lineWidths[m.top+i]
		cells, w = m.fitLast(cells, w)
		if m.top+i == m.sel {
			b.WriteString(m.styles.selected.Styled(m.cut("> "+joinCells(cells, nil), w)))
		} else {
			b.WriteString(m.cut("  "+joinCells(cells, m.cellStyle(r)), w))
		}
		b.WriteByte('\n')
	}
	if m.height > 0 {
		// Keep the note and help at the bottom of the screen.
		for i := len(visible); i < m.listHeight(); i++ {
			b.WriteByte('\n')
		}
	}
	b.WriteString(m.bottomLine())
	b.WriteByte('\n')
	b.WriteString(m.fit(m.styles.help, "↑/↓ select · enter attach · r restart (resume) · f fresh start · s stop · w why · ? what it all means · q quit"))
	return b.String()
}

func (m Model) title() string {
	if !m.loaded {
		return "superclaude dashboard — reading sessions…"
	}
	count := map[Status]int{}
	for _, r := range m.rows {
		count[r.Status]++
	}
	sessions := "sessions"
	if len(m.rows) == 1 {
		sessions = "session"
	}
	t := fmt.Sprintf("superclaude dashboard — %d %s: %d running, %d stale, %d stopped",
		len(m.rows), sessions, count[Running], count[Stale], count[Stopped])
	if !m.now.IsZero() {
		t += fmt.Sprintf(" — %s, every %s", m.now.Local().Format("15:04:05"), m.refresh)
	}
	// A host that does not answer is said where it is always seen.
	for _, u := range m.unreachable {
		t += " — " + clean(u)
	}
	return t
}

// bottomLine is the confirmation question, else the last action's note,
// else what the last reading stepped over.
func (m Model) bottomLine() string {
	switch {
	case m.confirm != nil:
		p := m.confirm
		return m.fit(m.styles.confirm, fmt.Sprintf(p.act.question(),
			clean(p.row.name()), clean(displayPane(p.row.Pane)), p.row.Supervisor.PID))
	case m.note != "" && m.noteErr:
		return m.fit(m.styles.err, clean(m.note))
	case m.note != "":
		return m.fit(m.styles.note, clean(m.note))
	case len(m.problems) > 0:
		return m.fit(m.styles.err, clean(fmt.Sprintf("%d skipped: %s", len(m.problems), m.problems[0])))
	case m.loaded && len(m.rows) == 0:
		return m.fit(m.styles.note, "no sessions yet")
	}
	return ""
}

func (m Model) viewWhy() string {
	w := m.why
	var b strings.Builder
	title := fmt.Sprintf("+why %s (pane %s) — %d events", clean(w.row.name()), clean(displayPane(w.row.Pane)), len(w.lines))
	if w.title != "" {
		title = w.title
	}
	b.WriteString(m.fit(m.styles.title, title))
	b.WriteByte('\n')
	end := min(len(w.lines), w.top+m.whyHeight())
	for _, l := range w.lines[w.top:end] {
		b.WriteString(m.fitLine(clean(l)))
		b.WriteByte('\n')
	}
	if len(w.lines) == 0 {
		b.WriteString("no events\n")
	}
	for i := end - w.top; i < m.whyHeight() && m.height > 0; i++ {
		b.WriteByte('\n')
	}
	b.WriteString(m.fit(m.styles.help, "↑/↓ pgup/pgdn scroll · q back"))
	return b.String()
}

func (m Model) cellStyle(r Row) map[int]ansi.Style {
	off := len(m.cols()) - len(columns)
	st := map[int]ansi.Style{off + colState: m.styles.status[r.Status]}
	if r.NeedsInput != nil && *r.NeedsInput {
		st[off+colInput] = m.styles.needsInput
	}
	return st
}

// columnWidths sizes each column to its widest cell, between its title's
// width and its cap; the last column is not padded.
func columnWidths(columns []column, rows [][]string) []int {
	w := make([]int, len(columns))
	for i, c := range columns {
		w[i] = ansi.StringWidth(c.title)
		if c.max == 0 {
			continue
		}
		for _, r := range rows {
			w[i] = max(w[i], ansi.StringWidth(r[i]))
		}
		w[i] = min(w[i], max(c.max, ansi.StringWidth(c.title)))
	}
	return w
}

// padCells cuts or pads each cell but the last to its column's width, and
// returns the padded cells and the width of the line they make joined.
func padCells(columns []column, cells []string, widths []int) ([]string, int) {
	out := make([]string, len(cells))
	width := 0
	for i, c := range cells {
		if i > 0 {
			width += 2
		}
		if i == len(cells)-1 {
			out[i] = c
			width += ansi.StringWidth(c)
			break
		}
		c = ansi.Truncate(c, widths[i], "…")
		pad := strings.Repeat(" ", widths[i]-ansi.StringWidth(c))
		if columns[i].right {
			c = pad + c
		} else {
			c += pad
		}
		out[i] = c
		width += widths[i]
	}
	return out, width
}

// joinCells joins padded cells with two spaces, styling the cells style
// names.
func joinCells(cells []string, style map[int]ansi.Style) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString("  ")
		}
		if s, ok := style[i]; ok {
			c = s.Styled(c)
		}
		b.WriteString(c)
	}
	return b.String()
}

// fit cuts a plain line to the screen's width, at a word boundary
// (cutWords), and styles it.
func (m Model) fit(s ansi.Style, line string) string {
	if m.width > 0 {
		line = cutWords(line, m.width)
	}
	return s.Styled(line)
}

// fitLine cuts a plain line to the screen's width, at a word boundary.
func (m Model) fitLine(line string) string {
	if m.width > 0 {
		return cutWords(line, m.width)
	}
	return line
}

// fitLast cuts a row's last cell, LAST EVENT, at a word boundary so that
// the row of width w fits the screen; the columns before it are left to
// cut when even they do not fit. It returns the cells and their width.
func (m Model) fitLast(cells []string, w int) ([]string, int) {
	if m.width <= 0 || w <= m.width || len(cells) == 0 {
		return cells, w
	}
	last := cells[len(cells)-1]
	lw := ansi.StringWidth(last)
	room := m.width - (w - lw)
	if room < minLastEvent {
		return cells, w
	}
	cut := cutWords(last, room)
	out := append(append([]string(nil), cells[:len(cells)-1]...), cut)
	return out, w - lw + ansi.StringWidth(cut)
}

// minLastEvent is the least room worth giving LAST EVENT a word-cut
// in; less, and the row is cut at the screen's edge.
const minLastEvent = 8

// cutWords cuts plain text to width cells, ending "…": at the last word
// boundary that keeps at least half of it, so that no word is cut in two
// (a line cut mid-word reads as a different word), and without the comma
// or colon the cut leaves at its end. A single word too long for the
// width is cut where the width ends.
func cutWords(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width <= 1 {
		return ansi.Truncate(s, width, "")
	}
	t := ansi.Truncate(s, width-1, "")
	// Cut at a space, unless what follows t is no letter nor digit:
	// then t ends a whole word already.
	if r, _ := utf8.DecodeRuneInString(s[len(t):]); unicode.IsLetter(r) || unicode.IsDigit(r) {
		if i := strings.LastIndexByte(t, ' '); i >= len(t)/2 {
			t = t[:i]
		}
	}
	t = strings.TrimRight(t, " ,;:—·-")
	return t + "…"
}

// cut is fitLine for a line whose width w is known: one that fits is left
// as it is, unmeasured.
func (m Model) cut(line string, w int) string {
	if m.width > 0 && w > m.width {
		return ansi.Truncate(line, m.width, "…")
	}
	return line
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
