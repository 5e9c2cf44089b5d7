package benchsuite

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/launch"
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
// its resident memory and its threads — superclaude's with its session
// leader's (the agent's parent on its pty, a second process of the same
// program), and each apart. Goal: ≤ 0.1 wakeups/s (the Go runtime's own;
// gosup makes none), memory toward gosup's.
func BenchmarkIdle(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		started := time.Now()
		fresh := r.superclaude(b, "")
		ticked := r.superclaude(b, "")
		gs := r.gosup(b)
		tick := payload(b, "statusline-after-turn-175k.json")
		for j := 0; j < 1000; j++ {
			r.callback(b, ticked, tick, r.bin, "+statusline")
		}
		// What a start or a tick set off is not idle: 2 s after the
		// ticks, and past the start's window in which a failed start is
		// told apart (launch.StartupFailWindow), at whose end the new
		// session's held events are written — a run measured before it
		// counted that write, and the Go runtime's spinning around it,
		// as 0.3–0.95 wakeups/s of "idle" (strace, 2026-12-02).
		time.Sleep(max(2*time.Second, time.Until(started.Add(launch.StartupFailWindow+time.Second))))
		all := []*running{fresh, ticked, gs}
		procs := make([][]int, len(all))
		before := make([][]int64, len(all))
		for j, s := range all {
			procs[j] = s.processes(b)
			for _, pid := range procs[j] {
				before[j] = append(before[j], switches(pid))
			}
		}
		time.Sleep(idleWindow)
		// rate[j][k]: the k-th process of all[j]; total[j] their sum.
		rate := make([][]float64, len(all))
		total := make([]float64, len(all))
		for j := range all {
			for k, pid := range procs[j] {
				r := float64(switches(pid)-before[j][k]) / idleWindow.Seconds()
				rate[j] = append(rate[j], r)
				total[j] += r
			}
		}
		report(b, "idle wakeups/s, agent idle, "+idleWindow.String()+" (supervisor and session leader)", "gosup", total[2], total[0], "/s", "≤ 0.1/s", total[0] <= 0.1)
		report(b, "idle wakeups/s after 1,000 ticks, "+idleWindow.String()+" (both)", "gosup", total[2], total[1], "/s", "≤ 0.1/s", total[1] <= 0.1)
		report(b, "idle wakeups/s, the supervisor alone", "gosup", total[2], rate[0][0], "/s", "", false)
		report(b, "idle wakeups/s, the session leader alone", "gosup", total[2], part(rate[0], 1), "/s", "", false)
		// A supervisor the system gave no inotify instance (128 per user
		// by default) reads its files once a second: say so, since it
		// shows as about one wakeup a second.
		if log, err := os.ReadFile(filepath.Join(r.dir, "state", "superclaude.log")); err == nil && strings.Contains(string(log), "no file watch") {
			b.Logf("a supervisor had no file watch and read its files once a second (the fallback)")
		}
		sum := func(pids []int, field string) float64 {
			var n int64
			for _, pid := range pids {
				n += procStatus(pid, field)
			}
			return float64(n)
		}
		rss := func(pids []int) float64 { return sum(pids, "VmRSS") / 1024 }
		report(b, "idle RSS (supervisor and session leader)", "gosup", rss(procs[2]), rss(procs[0]), "MiB", "", false)
		report(b, "idle RSS after 1,000 ticks (both)", "gosup", rss(procs[2]), rss(procs[1]), "MiB", "", false)
		report(b, "idle RSS, the supervisor alone", "gosup", rss(procs[2]), rss(procs[0][:1]), "MiB", "", false)
		report(b, "idle RSS, the session leader alone", "gosup", rss(procs[2]), rss(procs[0][1:]), "MiB", "", false)
		report(b, "idle threads (supervisor and session leader)", "gosup", sum(procs[2], "Threads"), sum(procs[0], "Threads"), "", "", false)
		report(b, "idle threads, the session leader alone", "gosup", sum(procs[2], "Threads"), sum(procs[0][1:], "Threads"), "", "", false)
	}
}

// part is rates[k], or 0 when there is no k-th process.
func part(rates []float64, k int) float64 {
	if k < len(rates) {
		return rates[k]
	}
	return 0
}

// processes are the processes of s that supervise its agent: s itself
// and, when the agent's parent is another process (superclaude's session
// leader, which holds the agent's pty session), that one. gosup is the
// agent's parent itself.
func (s *running) processes(b *testing.B) []int {
	b.Helper()
	recs := waitRecords(b, s.log, "start", 1, time.Second)
	agent := recs[len(recs)-1].pid
	pids := []int{s.pid}
	if pp := parentOf(agent); pp > 0 && pp != s.pid {
		pids = append(pids, pp)
	}
	return pids
}

// parentOf is pid's parent, from /proc/PID/stat (0 when unknown).
func parentOf(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name may hold spaces and parentheses: the fields
	// follow the last ')'.
	rest := string(data[strings.LastIndexByte(string(data), ')')+1:])
	f := strings.Fields(rest)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}
