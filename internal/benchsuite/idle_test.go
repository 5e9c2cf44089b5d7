package benchsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// idleWindow is how long the idle figures are measured:
// $SUPERCLAUDE_BENCH_IDLE (a Go duration) shortens it for a trial run.
var idleWindow = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("SUPERCLAUDE_BENCH_IDLE")); err == nil && d > 0 {
		return d
	}
	return 60 * time.Second
}()

// BenchmarkIdle leaves three supervisors of an idle agent alone for
// idleWindow, side by side: superclaude just started, superclaude after
// 1,000 status-line ticks, and gosup. It reports each one's wakeups a
// second (every context switch of every thread, /proc/PID/task/*/status),
// its resident memory and its threads. Goal: ≤ 0.1 wakeups/s (the Go
// runtime's own; gosup makes none), memory toward gosup's.
func BenchmarkIdle(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		fresh := r.superclaude(b, "")
		ticked := r.superclaude(b, "")
		gs := r.gosup(b)
		tick := payload(b, "statusline-after-turn-175k.json")
		for j := 0; j < 1000; j++ {
			r.callback(b, ticked, tick, r.bin, "+statusline")
		}
		time.Sleep(2 * time.Second) // what a start or a tick set off is not idle
		all := []*running{fresh, ticked, gs}
		before := make([]int64, len(all))
		for j, s := range all {
			before[j] = switches(s.pid)
		}
		time.Sleep(idleWindow)
		rate := make([]float64, len(all))
		for j, s := range all {
			rate[j] = float64(switches(s.pid)-before[j]) / idleWindow.Seconds()
		}
		report(b, "idle wakeups/s, agent idle, "+idleWindow.String(), "gosup", rate[2], rate[0], "/s", "≤ 0.1/s", rate[0] <= 0.1)
		report(b, "idle wakeups/s after 1,000 ticks, "+idleWindow.String(), "gosup", rate[2], rate[1], "/s", "≤ 0.1/s", rate[1] <= 0.1)
		// A supervisor the system gave no inotify instance (128 per user
		// by default) reads its files once a second: say so, since it
		// shows as about one wakeup a second.
		if log, err := os.ReadFile(filepath.Join(r.dir, "state", "superclaude.log")); err == nil && strings.Contains(string(log), "no file watch") {
			b.Logf("a supervisor had no file watch and read its files once a second (the fallback)")
		}
		rss := func(s *running) float64 { return float64(procStatus(s.pid, "VmRSS")) / 1024 }
		report(b, "idle RSS", "gosup", rss(gs), rss(fresh), "MiB", "", false)
		report(b, "idle RSS after 1,000 ticks", "gosup", rss(gs), rss(ticked), "MiB", "", false)
		report(b, "idle threads", "gosup", float64(procStatus(gs.pid, "Threads")), float64(procStatus(fresh.pid, "Threads")), "", "", false)
	}
}
