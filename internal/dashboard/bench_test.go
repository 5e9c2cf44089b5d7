package dashboard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// benchWorld writes sessions state files, spread over roots sessions
// roots registered in one index, half of them owned by this (live)
// process and half by a dead one, and an event log in each root of
// eventsPerSession lines per session plus pad bytes of other sessions'
// events. It returns the index directory.
func benchWorld(b *testing.B, sessions, roots, eventsPerSession int, pad int64) string {
	b.Helper()
	dir := b.TempDir()
	idx := filepath.Join(dir, "index")
	me, err := proc.Self()
	if err != nil {
		b.Fatal(err)
	}
	gone := me
	gone.Start++
	t0 := time.Now().Add(-time.Hour)
	for r := range roots {
		s, err := state.OpenIn(filepath.Join(dir, fmt.Sprintf("root%d", r), "sessions"), idx)
		if err != nil {
			b.Fatal(err)
		}
		var log strings.Builder
		for i := r; i < sessions; i += roots {
			name := fmt.Sprintf("s%03d", i)
			owner := me
			if i%2 == 1 {
				owner = gone
			}
			if _, err := s.Activate(name, "implement", state.Caller{Owner: owner, Pane: fmt.Sprintf("work:w%d:p%d", r, i)}); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Update(name, "", func(st *state.State) error {
				st.CostUSD, st.AgentStatus, st.ContextUsage, st.CurrentPhase = 0.42, "idle", 0.33, "tests"
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			for e := range eventsPerSession {
				log.WriteString(eventLine(name, "agent-start", t0.Add(time.Duration(e)*time.Second)))
			}
		}
		path := filepath.Join(s.Root, state.EventsFile)
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		other := eventLine("someone-else", "transition", t0)
		for n := int64(0); n < pad; n += int64(len(other)) {
			f.WriteString(other)
		}
		f.WriteString(log.String())
		f.Close()
	}
	return idx
}

// refreshAndRender is one refresh as the program does it: read every
// session, hand the rows to the model, draw the screen.
func refreshAndRender(b *testing.B, src Source, m Model) Model {
	snap, err := src.Rows(context.Background())
	if err != nil || len(snap.Problems) > 0 {
		b.Fatal(err, snap.Problems)
	}
	next, _ := m.Update(rowsMsg{snap: snap})
	m = next.(Model)
	if v := m.View().Content; !strings.Contains(v, "sessions: ") {
		b.Fatalf("view:\n%s", v)
	}
	return m
}

func benchModel(src Source) Model {
	m := newPlain(Config{Source: src})
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	next, _ := m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	return next.(Model)
}

// BenchmarkRefresh100Sessions is the dashboard's steady state: one refresh
// (100 state files in 4 roots read and validated, 100 owners checked, the
// event logs' new lines read) and one render of the screen. The goal is
// well under the 2 s refresh interval.
func BenchmarkRefresh100Sessions(b *testing.B) {
	idx := benchWorld(b, 100, 4, 20, 0)
	src := NewStoreSource(StoreConfig{IndexDir: idx})
	m := benchModel(src)
	m = refreshAndRender(b, src, m) // the first reading reads the logs whole
	if len(m.rows) != 100 {
		b.Fatalf("%d rows", len(m.rows))
	}
	for b.Loop() {
		m = refreshAndRender(b, src, m)
	}
}

// BenchmarkFirstRefresh100SessionsFullLog is the dashboard's first
// refresh when one root's event log is full (8 MiB, the size at which it
// rotates): the one reading that parses the whole log.
func BenchmarkFirstRefresh100SessionsFullLog(b *testing.B) {
	idx := benchWorld(b, 100, 1, 20, state.MaxEventsSize)
	for b.Loop() {
		src := NewStoreSource(StoreConfig{IndexDir: idx})
		refreshAndRender(b, src, benchModel(src))
	}
}

// BenchmarkRender100Sessions is the render alone: what a key press costs.
func BenchmarkRender100Sessions(b *testing.B) {
	var rows []Row
	for i := range 100 {
		rows = append(rows, Row{Session: fmt.Sprintf("s%03d", i), Dir: fmt.Sprint(i), Pane: fmt.Sprintf("work:w:p%d", i),
			Status: Running, Skill: "implement", Phase: "tests", Context: ptr(0.5), Cost: ptr(1.0), NeedsInput: ptr(false),
			LastEvent: "supervisor started the agent (pid 1234, fresh): restart requested", LastEventAt: at})
	}
	m := benchModel(&fakeSource{})
	next, _ := m.Update(rowsMsg{snap: Snapshot{Rows: rows, At: at}})
	m = next.(Model)
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	for b.Loop() {
		next, _ := m.Update(down)
		m = next.(Model)
		if m.View().Content == "" {
			b.Fatal("empty view")
		}
	}
}
