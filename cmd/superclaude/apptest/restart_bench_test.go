package apptest

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRestartLatency measures a restart with a cooperative agent: from
// the old agent's own exit to the supervisor's exec of the new one (the
// sweep, the decision, its state writes with their fsyncs, and the start).
// Goal: ≤ 100 ms beyond the agent's exit. Reported as ms-after-exit; the
// ms-request-to-exec metric adds the agent's own reaction to SIGTERM.
func BenchmarkRestartLatency(b *testing.B) {
	h := newHarness(b)
	p := h.start()
	p.Expect(b, 0, "FAKE-AGENT READY", timeout)
	var afterExit, total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		requested := time.Now()
		p.Cmd.Process.Signal(syscall.SIGUSR1)
		h.waitStarts(i+2, timeout)
		exits := h.events("exit")
		exitAt := exits[len(exits)-1].Time
		execAt := h.agentStarts()[i+1]
		afterExit += execAt.Sub(exitAt)
		total += execAt.Sub(requested)
	}
	b.StopTimer()
	b.ReportMetric(float64(afterExit.Microseconds())/1000/float64(b.N), "ms-after-exit")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-request-to-exec")
	p.Type("exit 0")
	p.Wait(b, timeout)
}

// BenchmarkIdleSupervisor leaves superclaude with an idle agent for 10 s and
// reports the supervisor's CPU time, its threads' context switches (each a
// wakeup; the goal is none from polling) and its resident memory (goal
// ≤ 20 MiB). Run it with -benchtime=1x.
func BenchmarkIdleSupervisor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		h := newHarness(b)
		p := h.start()
		p.Expect(b, 0, "FAKE-AGENT READY", timeout)
		pid := p.Cmd.Process.Pid
		time.Sleep(time.Second) // settle: startup work is not idle work
		cpu0, sw0 := cpuTicks(b, pid), switches(b, pid)
		time.Sleep(10 * time.Second)
		cpu1, sw1 := cpuTicks(b, pid), switches(b, pid)
		rss := rssKiB(b, pid)
		b.ReportMetric(float64(cpu1-cpu0)*10, "cpu-ms/10s") // 100 ticks per second
		b.ReportMetric(float64(sw1-sw0), "wakeups/10s")
		b.ReportMetric(float64(rss)/1024, "rss-MiB")
		p.Type("exit 0")
		p.Wait(b, timeout)
	}
}

func procFile(b *testing.B, pid int, name string) string {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), name))
	if err != nil {
		b.Skip("needs /proc (Linux):", err)
	}
	return string(data)
}

func cpuTicks(b *testing.B, pid int) int64 {
	s := procFile(b, pid, "stat")
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ut, _ := strconv.ParseInt(f[11], 10, 64) // field 14
	st, _ := strconv.ParseInt(f[12], 10, 64) // field 15
	return ut + st
}

func switches(b *testing.B, pid int) int64 {
	tasks, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "task"))
	var n int64
	for _, task := range tasks {
		data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", task.Name(), "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			if k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches" {
				x, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}

func rssKiB(b *testing.B, pid int) int64 {
	for _, line := range strings.Split(procFile(b, pid, "status"), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
