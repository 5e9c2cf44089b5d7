package benchsuite

import (
	"fmt"
	"testing"
	"time"
)

// callbackRounds is how many times each callback and the floor run.
const callbackRounds = 300

// BenchmarkCallbacks times superclaude's callbacks as Claude Code runs
// them — the status line through a live supervisor's binder, and the
// PreToolUse hook in a skill's session — against the Go floor (a static Go
// program that reads stdin and prints a line), interleaved, as whole
// processes, exec to exit. Goal: ≤ 1.5× the floor at p50.
func BenchmarkCallbacks(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		sc := r.superclaude(b, "")
		r.callback(b, sc, nil, r.bin, "+session", "activate", "bench", "implement")
		tick := payload(b, "statusline-after-turn-175k.json")
		hook := payload(b, "hook-PreToolUse.json")
		gofloor := floor(b, "gofloor")
		var fl, line, pre []time.Duration
		for j := 0; j < callbackRounds; j++ {
			t, _ := r.callback(b, sc, tick, gofloor)
			fl = append(fl, t)
			t, _ = r.callback(b, sc, tick, r.bin, "+statusline")
			line = append(line, t)
			t, _ = r.callback(b, sc, hook, r.bin, "+hook", "pre-tool-use")
			pre = append(pre, t)
		}
		report(b, "status-line callback p50 (through the binder)", "Go floor", pct(fl, .5), pct(line, .5), "ms", "≤ 1.5× floor", pct(line, .5) <= 1.5*pct(fl, .5))
		report(b, "status-line callback p99", "Go floor", pct(fl, .99), pct(line, .99), "ms", "", false)
		report(b, "PreToolUse hook p50 (skill session)", "Go floor", pct(fl, .5), pct(pre, .5), "ms", "≤ 1.5× floor", pct(pre, .5) <= 1.5*pct(fl, .5))
		report(b, "PreToolUse hook p99", "Go floor", pct(fl, .99), pct(pre, .99), "ms", "", false)
	}
}

// BenchmarkSixteenPanesTicks runs sixteen supervisors, one per labelled
// pane, and ticks each one's status line in turn, as sixteen Claude Codes
// do: per tick, the CPU time of the status-line process plus what the
// sixteen supervisors spent meanwhile, against the Go floor's CPU time a
// run.
func BenchmarkSixteenPanesTicks(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		var panes []*running
		for p := 0; p < 16; p++ {
			panes = append(panes, r.superclaude(b, fmt.Sprintf("bench:w:P%d", p)))
		}
		tick := payload(b, "statusline-after-turn-175k.json")
		gofloor := floor(b, "gofloor")
		time.Sleep(time.Second)
		supCPU := func() time.Duration {
			var n time.Duration
			for _, s := range panes {
				n += cpuTime(s.pid)
			}
			return n
		}
		var floorCPU, tickCPU time.Duration
		rounds := 10
		sup0 := supCPU()
		for j := 0; j < rounds; j++ {
			for _, s := range panes {
				_, cpu := r.callback(b, s, tick, gofloor)
				floorCPU += cpu
				_, cpu = r.callback(b, s, tick, r.bin, "+statusline")
				tickCPU += cpu
			}
		}
		sup := supCPU() - sup0
		n := float64(rounds * len(panes))
		ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 / n }
		report(b, "16 panes: CPU a tick (status-line process + supervisors)", "Go floor", ms(floorCPU), ms(tickCPU+sup), "ms", "", false)
		report(b, "16 panes: the supervisors' part of a tick", "Go floor", ms(floorCPU), ms(sup), "ms", "", false)
	}
}
