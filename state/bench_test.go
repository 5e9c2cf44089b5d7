package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/superclaude/superclaude/proc"
)

// populate writes n sessions straight to disk (as fast as possible; the
// benchmark is of lookups, not of setup) and builds the index. Session i
// is in pane "fleet:w:i"; the last one is owned by this process.
func populate(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	os.MkdirAll(s.Root, 0o700)
	me, _ := proc.Self()
	for i := 0; i < n; i++ {
		pid := 0
		start := uint64(0)
		if i == n-1 {
			pid, start = me.PID, me.Start
		}
		name := fmt.Sprintf("2026_02_07_S%05d", i)
		dir := filepath.Join(s.Root, name)
		os.Mkdir(dir, 0o700)
		body := fmt.Sprintf(`{"pid":%d,"pidStart":%d,"skill":"implement","lifecycle":"active","fleetPaneId":"fleet:w:%d","startedAt":"2026-02-07T14:30:00Z","contextUsage":0.3}`, pid, start, i)
		if err := os.WriteFile(filepath.Join(dir, StateFile), []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Reindex(); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkFindByPane looks up one pane's session among n. The goal is
// ≤ 5 ms and flat in n: compare the sessions=10 and sessions=10000 rows.
func BenchmarkFindByPane(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run("sessions="+strconv.Itoa(n), func(b *testing.B) {
			s := populate(b, n)
			pane := "fleet:w:" + strconv.Itoa(n/2)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.FindByPane(pane); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFindByOwner looks up the session of a live supervisor (this
// process), verifying its start time, among n.
func BenchmarkFindByOwner(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run("sessions="+strconv.Itoa(n), func(b *testing.B) {
			s := populate(b, n)
			me, _ := proc.Self()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.FindByOwner(me); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUpdate is one locked read-modify-write with both fsyncs, the
// cost of every state change.
func BenchmarkUpdate(b *testing.B) {
	s := populate(b, 1)
	name := "2026_02_07_S00000"
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Update(name, "bench", func(st *State) error {
			st.ContextUsage = float64(i%100) / 100
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
