package dashboard

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/superclaude/superclaude/proc"
)

// fakeSource is a Source over fixed rows that records what it was asked
// to do: the model's tests check which calls a key makes.
type fakeSource struct {
	snap      Snapshot
	rowsErr   error
	reads     int
	calls     []string
	actionErr error
	waiting   bool
	why       []string
	attachCmd *exec.Cmd
}

func (f *fakeSource) Rows(context.Context) (Snapshot, error) {
	f.reads++
	return f.snap, f.rowsErr
}

func (f *fakeSource) Restart(_ context.Context, r Row, fresh bool) (bool, error) {
	f.calls = append(f.calls, map[bool]string{false: "restart ", true: "fresh "}[fresh]+r.Session)
	return f.waiting, f.actionErr
}

func (f *fakeSource) Stop(_ context.Context, r Row) error {
	f.calls = append(f.calls, "stop "+r.Session)
	return f.actionErr
}

func (f *fakeSource) Why(_ context.Context, r Row) ([]string, error) {
	f.calls = append(f.calls, "why "+r.Session)
	return f.why, f.actionErr
}

func (f *fakeSource) Attach(_ context.Context, r Row) (*exec.Cmd, error) {
	f.calls = append(f.calls, "attach "+r.Session)
	return f.attachCmd, f.actionErr
}

var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)

func ptr[T any](v T) *T { return &v }

// fixedRows are the rows of the model and view tests, in no order: the
// model sorts them.
func fixedRows() []Row { // a few tests pick b-sess as [2]
	return []Row{
		{Session: "old", Dir: "/s/old", Status: Stopped, Supervisor: proc.Identity{PID: 7}, Lifecycle: "completed",
			Skill: "review", Context: ptr(0.1), Restarts: 2},
		{Session: "stuck", Dir: "/s/stuck", Status: Stopped, Halted: "3 restarts without progress", Restarts: 3, Context: ptr(0.0)},
		{Session: "b-sess", Dir: "/s/b-sess", Pane: "work:main:B", Status: Running, Supervisor: proc.Identity{PID: 102},
			Skill: "implement", Phase: "tests", Context: ptr(0.5), Cost: ptr(1.5), NeedsInput: ptr(true),
			LastEvent: "started the agent (pid 5102)", LastEventAt: at.Add(-12 * time.Second)},
		{Session: "a-sess", Dir: "/s/a-sess", Pane: "work:main:A", Status: Running, Supervisor: proc.Identity{PID: 101},
			Context: ptr(0.834), Overflowed: true, NeedsInput: ptr(false), Limit: "usage", LimitUntil: at.Add(90 * time.Second)},
		{Session: "c-sess", Dir: "/s/c-sess", Pane: "%3@/tmp/tmux-1/default@1700000000", Status: Stale, Supervisor: proc.Identity{PID: 103},
			Lifecycle: "restarting", // and no Context: an agent that does not report it (codex)
			LastEvent: "the context window is full", LastEventAt: at.Add(-3 * time.Hour)},
	}
}

// plain is the colour profile of a terminal that shows no styles: the
// views are then plain text, which the tests compare.
var plain = tea.ColorProfileMsg{Profile: colorprofile.NoTTY}

// newPlain returns a model that draws no styles, as the program makes it
// when the terminal shows none.
func newPlain(c Config) Model {
	next, _ := New(c).Update(plain)
	return next.(Model)
}

// harness drives a model as a program would, but synchronously: every
// command is run and its message fed back, except the refresh timer,
// which is recorded instead of waited for.
type harness struct {
	t     *testing.T
	m     Model
	src   *fakeSource
	ticks int
	quit  bool
}

func newHarness(t *testing.T, rows []Row) *harness {
	h := &harness{t: t, src: &fakeSource{snap: Snapshot{Rows: rows, At: at}}}
	h.m = newPlain(Config{Source: h.src})
	h.m.after = func(time.Duration, tea.Msg) tea.Cmd { h.ticks++; return nil }
	h.send(tea.WindowSizeMsg{Width: 150, Height: 10})
	h.do(h.m.Init())
	return h
}

func (h *harness) send(msgs ...tea.Msg) {
	for _, msg := range msgs {
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		h.do(cmd)
	}
}

func (h *harness) do(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.do(c)
		}
	case tea.QuitMsg:
		h.quit = true
	case rowsMsg, actionMsg, whyMsg, attachMsg, attachDoneMsg, tickMsg:
		h.send(msg)
	}
}

// keys sends key presses: single characters, or tea's names of keys. Each
// is sent as the bytes an xterm sends for it, decoded by the decoder the
// program reads the terminal with, so that a key reaches Update as it
// would from a person.
func (h *harness) keys(keys ...string) {
	h.t.Helper()
	sent := map[string]string{"up": "\x1b[A", "down": "\x1b[B", "enter": "\r", "esc": "\x1b", "ctrl+c": "\x03",
		"pgup": "\x1b[5~", "pgdown": "\x1b[6~", "home": "\x1b[H", "end": "\x1b[F", "space": " "}
	var dec uv.EventDecoder
	for _, k := range keys {
		b, ok := sent[k]
		if !ok {
			b = k
		}
		n, ev := dec.Decode([]byte(b))
		press, ok := ev.(uv.KeyPressEvent)
		if !ok || n != len(b) {
			h.t.Fatalf("key %q (%q) decodes as %T %+v (%d bytes)", k, b, ev, ev, n)
		}
		h.send(tea.KeyPressMsg(press))
	}
}

func (h *harness) selected() string {
	r, _ := h.m.selected()
	return r.Session
}

func TestSortRowsPutsFleetPanesFirstThenOtherPanesThenNone(t *testing.T) {
	rows := fixedRows()
	// A stopped session keeps its place among the live ones.
	rows[2].Status = Stopped
	var got []string
	for _, r := range sortRows(rows) {
		got = append(got, r.Session)
	}
	if want := "[a-sess b-sess c-sess old stuck]"; fmt.Sprint(got) != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}

// Issue 19: two sessions named demo, in two projects, showed as two
// identical rows. Each shows its directory instead.
func TestSessionsSharingANameShowTheirDirectories(t *testing.T) {
	t.Setenv("HOME", "/home/me")
	h := newHarness(t, []Row{
		{Session: "demo", Dir: "/home/me/a/sessions/demo", Status: Running},
		{Session: "demo", Dir: "/srv/b/sessions/demo", Status: Stopped},
		{Session: "solo", Dir: "/home/me/a/sessions/solo", Status: Stopped},
	})
	view := h.m.View().Content
	for _, want := range []string{"~/a/sessions/demo", "/srv/b/sessions/demo", "  solo "} {
		if !strings.Contains(view, want) {
			t.Errorf("the list does not show %q:\n%s", want, view)
		}
	}
	h.keys("s")
	if !strings.Contains(h.m.View().Content, "Stop the agent of session ~/a/sessions/demo") {
		t.Errorf("the question does not name which demo:\n%s", h.m.View().Content)
	}
}

func TestViewOfFixedRows(t *testing.T) {
	h := newHarness(t, fixedRows())
	want := strings.Join([]string{
		"superclaude dashboard — 5 sessions: 2 running, 1 stale, 2 stopped — 12:00:00, every 2s",
		"  SESSION  PANE         STATE      SKILL/PHASE       CTX   COST  INPUT  LIMIT     RST  LAST EVENT",
		"> a-sess   work:main:A  running    –                83%!      –  no     usage 1m    0  –",
		"  b-sess   work:main:B  running    implement/tests   50%  $1.50  yes    –           0  12s ago  started the agent (pid 5102)",
		"  c-sess   %3           stale      –                   –      –  –      –           0  3h ago  the context window is full",
		"  old      –            completed  review            10%      –  –      –           2  –",
		"  stuck    –            halted     –                  0%      –  –      –           3  –",
		"",
		"", // the note: none
		"↑/↓ select · enter attach · r restart (resume) · f fresh start · s stop · w why · ? what it all means · q quit",
	}, "\n")
	if got := h.m.View().Content; got != want {
		t.Fatalf("view:\n%s\nwant:\n%s", got, want)
	}
}

func TestViewCutsLinesToTheScreenAndScrollsToTheSelection(t *testing.T) {
	var rows []Row
	for i := range 30 {
		rows = append(rows, Row{Session: fmt.Sprintf("s%02d", i), Dir: fmt.Sprint(i), Status: Running,
			LastEvent: strings.Repeat("x", 200)})
	}
	h := newHarness(t, rows)
	h.send(tea.WindowSizeMsg{Width: 60, Height: 8}) // 4 rows fit
	h.keys("end")
	lines := strings.Split(h.m.View().Content, "\n")
	if len(lines) != 8 {
		t.Fatalf("%d lines on an 8-line screen:\n%s", len(lines), h.m.View().Content)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line of width %d on a 60-column screen: %q", w, l)
		}
	}
	if !strings.HasPrefix(lines[5], "> s29") || !strings.HasPrefix(lines[2], "  s26") {
		t.Fatalf("the last row is not selected and in view:\n%s", h.m.View().Content)
	}
}

// TestViewCleansControlSequencesFromState: a state file is anyone's of the
// same user to write; an escape sequence in it must reach the terminal as
// nothing.
func TestViewCleansControlSequencesFromState(t *testing.T) {
	h := newHarness(t, []Row{{Session: "x", Dir: "x", Status: Running, Skill: "evil\x1b]0;pwned\x07\x1b[2J",
		Phase: "p\u202eq", Limit: "l\x9bm", LastEvent: "a\nb"}})
	list := h.m.View().Content
	if !strings.Contains(list, "evil]0;pwned[2J/pq") || !strings.Contains(list, "a b") {
		t.Errorf("the cleaned values are not shown:\n%s", list)
	}
	h.src.why = []string{"line \x1b[31mred"}
	h.keys("w")
	why := h.m.View().Content
	if !strings.Contains(why, "line [31mred") {
		t.Errorf("the cleaned event is not shown:\n%s", why)
	}
	for _, v := range []string{list, why} {
		for _, bad := range []string{"\x1b", "\x07", "\u202e", "\x9b", "\nb"} {
			if strings.Contains(v, bad) {
				t.Errorf("the view holds %q:\n%q", bad, v)
			}
		}
	}
}

func TestViewColoursTheStateWhenTheTerminalHasColours(t *testing.T) {
	m := New(Config{Source: &fakeSource{}})
	next, _ := m.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI})
	next, _ = next.(Model).Update(rowsMsg{snap: Snapshot{Rows: fixedRows(), At: at}})
	v := next.(Model).View().Content
	if !strings.Contains(v, "\x1b[32mrunning") || !strings.Contains(v, "\x1b[33mstale") || !strings.Contains(v, "\x1b[7m> a-sess") {
		t.Fatalf("no colours:\n%q", v)
	}
}

func TestKeyUpDownMovesTheSelectionWithinTheRows(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{nil, "a-sess"},
		{[]string{"down"}, "b-sess"},
		{[]string{"j", "j"}, "c-sess"},
		{[]string{"j", "j", "j"}, "old"},
		{[]string{"j", "j", "j", "j", "j", "j"}, "stuck"},
		{[]string{"j", "k"}, "a-sess"},
		{[]string{"up"}, "a-sess"},
		{[]string{"end"}, "stuck"},
		{[]string{"G", "g"}, "a-sess"},
		{[]string{"pgdown"}, "stuck"},
		{[]string{"pgdown", "pgup"}, "a-sess"},
		{[]string{"end", "home"}, "a-sess"},
	} {
		h := newHarness(t, fixedRows())
		h.keys(tc.keys...)
		if got := h.selected(); got != tc.want {
			t.Errorf("keys %q: selected %s, want %s", tc.keys, got, tc.want)
		}
	}
}

// Regression, issue 19: the selection jumped to the bottom of the list
// after s, as the stopped session moved down among the stopped ones. Rows
// now keep their place whatever their state, and the selection with them.
// Issue 19: the dashboard's marks (!, RST, the state words) were
// explained nowhere. ? shows what each means, from cli.Codes.
func TestKeyQuestionMarkExplainsEveryMark(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("?")
	if !strings.HasPrefix(h.m.View().Content, "what the dashboard's columns and words mean") {
		t.Fatalf("? shows:\n%s", h.m.View().Content)
	}
	view := strings.Join(h.m.why.lines, "\n") // all of it, as it scrolls
	for _, want := range []string{"RST", "how many times superclaude has restarted", "held by a shell", "after CTX: the context window filled up", "f fresh start"} {
		if !strings.Contains(view, want) {
			t.Errorf("? does not explain %q:\n%s", want, view)
		}
	}
	h.keys("q")
	if !strings.HasPrefix(h.m.View().Content, "superclaude dashboard") {
		t.Errorf("q did not go back to the list:\n%s", h.m.View().Content)
	}
}

func TestSelectionStaysPutWhenItsSessionStops(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("j") // b-sess
	rows := fixedRows()
	rows[2].Status = Stopped // b-sess stops
	h.src.snap.Rows = rows
	h.keys("u")
	if got := h.selected(); got != "b-sess" || h.m.sel != 1 {
		t.Fatalf("selected %s at row %d after b-sess stopped, want b-sess still at row 1", got, h.m.sel)
	}
}

func TestSelectionFollowsItsSessionWhenRowsAreAdded(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("j") // b-sess
	rows := append(fixedRows(), Row{Session: "a0", Dir: "/s/a0", Pane: "work:main:0", Status: Running})
	h.src.snap.Rows = rows
	h.keys("u")
	if got := h.selected(); got != "b-sess" || h.m.sel != 2 {
		t.Fatalf("selected %s at row %d after a row came before it, want b-sess at row 2", got, h.m.sel)
	}
}

func TestKeyEnterAndAAttachToTheSelectedPane(t *testing.T) {
	for _, k := range []string{"enter", "a"} {
		h := newHarness(t, fixedRows())
		h.keys("j", k)
		if fmt.Sprint(h.src.calls) != "[attach b-sess]" {
			t.Errorf("%s: calls %v, want [attach b-sess]", k, h.src.calls)
		}
		if !strings.Contains(h.m.View().Content, "switched to pane work:main:B") {
			t.Errorf("%s: the view does not say where it switched:\n%s", k, h.m.View().Content)
		}
	}
}

func TestAttachOutsideTmuxRunsTheCommandInTheForeground(t *testing.T) {
	h := newHarness(t, fixedRows())
	b := fixedRows()[2]
	next, cmd := h.m.Update(attachMsg{row: b, cmd: exec.Command("true")})
	if cmd == nil {
		t.Fatal("an attach command was not run")
	}
	h.m = next.(Model)
	h.send(attachDoneMsg{row: b})
	if !strings.Contains(h.m.View().Content, "back from pane work:main:B") {
		t.Fatalf("no word of the return:\n%s", h.m.View().Content)
	}
}

func TestAttachWithoutAPaneSaysSo(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("end", "a")
	if len(h.src.calls) != 0 {
		t.Fatalf("calls %v for a session without a pane", h.src.calls)
	}
	if !strings.Contains(h.m.View().Content, "session stuck has no pane to attach to") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
}

func TestKeyRRestartsOnlyAfterConfirmation(t *testing.T) {
	h := newHarness(t, fixedRows())
	reads := h.src.reads
	h.keys("j", "r")
	if len(h.src.calls) != 0 {
		t.Fatalf("restart sent before confirmation: %v", h.src.calls)
	}
	if !strings.Contains(h.m.View().Content, "Restart the agent of session b-sess, resuming its conversation (pane work:main:B, supervisor pid 102)? y/n") {
		t.Fatalf("no question:\n%s", h.m.View().Content)
	}
	h.keys("y")
	if fmt.Sprint(h.src.calls) != "[restart b-sess]" {
		t.Fatalf("calls %v, want [restart b-sess]", h.src.calls)
	}
	if h.src.reads != reads+1 {
		t.Fatalf("no refresh after the restart (%d reads, want %d)", h.src.reads, reads+1)
	}
	if !strings.Contains(h.m.View().Content, "restart of b-sess requested") {
		t.Fatalf("no word of the restart:\n%s", h.m.View().Content)
	}
}

// Issue 19: r threw the conversation away, where the person expected a
// resume. r now resumes, f starts fresh, each after its own question.
func TestKeysRResumesAndFStartsFresh(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("f")
	if !strings.Contains(h.m.View().Content, "Start the agent of session a-sess again with a fresh context") {
		t.Fatalf("no question:\n%s", h.m.View().Content)
	}
	h.keys("y", "r", "y")
	if fmt.Sprint(h.src.calls) != "[fresh a-sess restart a-sess]" {
		t.Fatalf("calls %v, want a fresh start then a resuming restart", h.src.calls)
	}
	if !strings.Contains(h.m.View().Content, "r restart (resume) · f fresh start") {
		t.Fatalf("the help line does not name both:\n%s", h.m.View().Content)
	}
}

func TestARestartThatWaitsForTheTurnSaysSo(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.src.waiting = true
	h.keys("r", "y")
	if !strings.Contains(h.m.View().Content, "restart of a-sess requested: the agent is in the middle of a turn") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
}

func TestKeySStopsOnlyAfterConfirmation(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("s")
	if !strings.Contains(h.m.View().Content, "Stop the agent of session a-sess") {
		t.Fatalf("no question:\n%s", h.m.View().Content)
	}
	h.keys("Y")
	if fmt.Sprint(h.src.calls) != "[stop a-sess]" {
		t.Fatalf("calls %v, want [stop a-sess]", h.src.calls)
	}
}

func TestAnyOtherKeyCancelsTheConfirmation(t *testing.T) {
	for _, k := range []string{"n", "esc", "r", "q", "enter"} {
		h := newHarness(t, fixedRows())
		h.keys("r", k)
		if len(h.src.calls) != 0 || h.quit {
			t.Errorf("%s after r: calls %v, quit %v", k, h.src.calls, h.quit)
		}
		if !strings.Contains(h.m.View().Content, "restart of a-sess cancelled") {
			t.Errorf("%s after r: view\n%s", k, h.m.View().Content)
		}
	}
}

func TestRestartOfAStoppedSessionIsRefusedWithoutAsking(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.keys("end", "r")
	if h.m.confirm != nil || len(h.src.calls) != 0 {
		t.Fatalf("asked or sent for a stopped session: %v", h.src.calls)
	}
	if !strings.Contains(h.m.View().Content, "cannot restart stuck: it is stopped, no superclaude runs its agent") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
}

// TestRestartOfAShellOwnedSessionIsRefusedWithoutAsking: a session
// activated by hand in a plain shell is owned by that shell, alive, but
// there is no supervisor to ask; the row says so and r is refused.
func TestRestartOfAShellOwnedSessionIsRefusedWithoutAsking(t *testing.T) {
	rows := fixedRows()
	rows[3].NoSupervisor = true // a-sess, selected first
	h := newHarness(t, rows)
	if !strings.Contains(h.m.View().Content, "held by a shell") {
		t.Fatalf("the row does not say it has no supervisor:\n%s", h.m.View().Content)
	}
	h.keys("r")
	if h.m.confirm != nil || len(h.src.calls) != 0 {
		t.Fatalf("asked or sent for a shell-owned session: %v", h.src.calls)
	}
	if !strings.Contains(h.m.View().Content, "cannot restart a-sess: it is held by pid 101, a shell where it was activated by hand") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
}

func TestAFailedActionShowsItsError(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.src.actionErr = errors.New("its supervisor (pid 101) did not take it: boom")
	h.keys("r", "y")
	if !strings.Contains(h.m.View().Content, "restart of a-sess: its supervisor (pid 101) did not take it: boom") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
}

func TestKeyWShowsWhyScrollableAndQGoesBack(t *testing.T) {
	h := newHarness(t, fixedRows())
	for i := range 20 {
		h.src.why = append(h.src.why, fmt.Sprintf("event %02d", i))
	}
	h.keys("w")
	if fmt.Sprint(h.src.calls) != "[why a-sess]" {
		t.Fatalf("calls %v", h.src.calls)
	}
	// 10 lines: a title, 8 events, the help. It opens at the end.
	view := func() []string { return strings.Split(h.m.View().Content, "\n") }
	if v := view(); v[0] != "+why a-sess (pane work:main:A) — 20 events" || v[1] != "event 12" || v[8] != "event 19" {
		t.Fatalf("why view:\n%s", h.m.View().Content)
	}
	h.keys("k", "k")
	if v := view(); v[1] != "event 10" {
		t.Fatalf("after k k:\n%s", h.m.View().Content)
	}
	h.keys("home")
	if v := view(); v[1] != "event 00" {
		t.Fatalf("after home:\n%s", h.m.View().Content)
	}
	h.keys("up")
	if v := view(); v[1] != "event 00" {
		t.Fatalf("scrolled above the top:\n%s", h.m.View().Content)
	}
	h.keys("pgdown", "j")
	if v := view(); v[1] != "event 09" {
		t.Fatalf("after pgdown j:\n%s", h.m.View().Content)
	}
	h.keys("home", "space") // the space bar pages down too
	if v := view(); v[1] != "event 08" {
		t.Fatalf("after home space:\n%s", h.m.View().Content)
	}
	h.keys("end", "j")
	if v := view(); v[8] != "event 19" {
		t.Fatalf("scrolled past the end:\n%s", h.m.View().Content)
	}
	h.keys("q")
	if h.quit || h.m.why != nil || !strings.HasPrefix(h.m.View().Content, "superclaude dashboard") {
		t.Fatalf("q in the why view did not go back to the list (quit %v):\n%s", h.quit, h.m.View().Content)
	}
}

func TestKeyQAndCtrlCQuit(t *testing.T) {
	for _, keys := range [][]string{{"q"}, {"ctrl+c"}, {"w", "ctrl+c"}, {"r", "ctrl+c"}} {
		h := newHarness(t, fixedRows())
		h.keys(keys...)
		if !h.quit {
			t.Errorf("%q did not quit", keys)
		}
		if len(h.src.calls) > 1 || (len(h.src.calls) == 1 && h.src.calls[0] != "why a-sess") {
			t.Errorf("%q: calls %v", keys, h.src.calls)
		}
	}
}

func TestKeyURefreshesNowAndTheTimerKeepsOneChain(t *testing.T) {
	h := newHarness(t, fixedRows())
	if h.src.reads != 1 || h.ticks != 1 {
		t.Fatalf("after start: %d reads, %d timers; want 1, 1", h.src.reads, h.ticks)
	}
	h.keys("u")
	if h.src.reads != 2 {
		t.Fatalf("u did not read: %d reads", h.src.reads)
	}
	// The timer set before u belongs to an older chain: it reads nothing.
	h.send(tickMsg{gen: 1})
	if h.src.reads != 2 {
		t.Fatalf("a stale timer read again: %d reads", h.src.reads)
	}
	h.send(tickMsg{gen: h.m.gen})
	if h.src.reads != 3 {
		t.Fatalf("the current timer did not read: %d reads", h.src.reads)
	}
}

func TestATickWhileReadingDoesNotReadTwice(t *testing.T) {
	m := newPlain(Config{Source: &fakeSource{}})
	// New is reading (Init's command has not answered yet).
	next, cmd := m.Update(tickMsg{gen: m.gen})
	if cmd != nil || !next.(Model).loading {
		t.Fatal("a tick during a reading started another")
	}
}

func TestAReadingErrorIsShownAndTheTimerGoesOn(t *testing.T) {
	h := newHarness(t, fixedRows())
	h.src.rowsErr = errors.New("disk on fire")
	h.keys("u")
	if !strings.Contains(h.m.View().Content, "reading sessions: disk on fire") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
	if h.ticks != 2 {
		t.Fatalf("%d timers, want 2", h.ticks)
	}
	if h.selected() != "a-sess" {
		t.Fatal("the rows were lost on an error")
	}
}

func TestProblemsAndEmptyListAreShown(t *testing.T) {
	h := newHarness(t, nil)
	if !strings.Contains(h.m.View().Content, "no sessions yet") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
	h.src.snap.Problems = []string{"sessions/x/.state.json: pid: want a number"}
	h.keys("u")
	if !strings.Contains(h.m.View().Content, "1 skipped: sessions/x/.state.json: pid: want a number") {
		t.Fatalf("view:\n%s", h.m.View().Content)
	}
	// Keys on an empty list do nothing.
	h.keys("enter", "r", "s", "w", "j", "k")
	if len(h.src.calls) != 0 || h.m.confirm != nil {
		t.Fatalf("calls on an empty list: %v", h.src.calls)
	}
}

// Regression (issue 19's "Words"): LAST EVENT was cut at the screen's
// edge mid-word ("… this one is do…"); +why's lines too. A cut ends at a
// word boundary, with "…", and the line still fits.
func TestViewCutsLastEventAtAWordBoundary(t *testing.T) {
	event := "a skill's session took over (/tmp/proj/sessions/work): this one is done"
	h := newHarness(t, []Row{{Session: "s", Dir: "s", Status: Running, LastEvent: event}})
	h.send(tea.WindowSizeMsg{Width: 100, Height: 10})
	var row string
	for _, l := range strings.Split(h.m.View().Content, "\n") {
		if strings.HasPrefix(l, "> s") {
			row = l
		}
	}
	if w := ansi.StringWidth(row); w > 100 {
		t.Fatalf("row of width %d on a 100-column screen: %q", w, row)
	}
	cut, ok := strings.CutSuffix(row, "…")
	if !ok {
		t.Fatalf("the row is not cut: %q", row)
	}
	last := cut[strings.Index(cut, "a skill's"):]
	if next := event[len(last):]; !strings.HasPrefix(event, last) || next[0] >= 'a' && next[0] <= 'z' {
		t.Fatalf("cut mid-word: %q (from %q)", last, event)
	}
	for in, want := range map[string]string{
		"restarting the agent; the continuation prompt was handed": "restarting the agent…",
		"short":                  "short",
		"averyveryverylongword!": "averyveryverylongwor…",
	} {
		if got := cutWords(in, 21); got != want {
			t.Errorf("cutWords(%q, 21) = %q, want %q", in, got, want)
		}
	}
	if got := cutWords("one two, three", 10); got != "one two…" {
		t.Errorf("cutWords(\"one two, three\", 10) = %q, want %q", got, "one two…")
	}
}
