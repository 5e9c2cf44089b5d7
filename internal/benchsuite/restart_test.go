package benchsuite

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// restartRounds is how many restarts each supervisor does per measure.
const restartRounds = 20

// restartTimes restarts s's agent with SIGUSR1 rounds times and returns,
// per restart, the time from the signal to the new agent's start, and
// from the old agent's exit (its SIGTERM handled) to the new one's start.
func restartTimes(b *testing.B, s *running, round int) (total, afterExit time.Duration) {
	b.Helper()
	starts := len(waitRecords(b, s.log, "start", 1, time.Second))
	sent := time.Now()
	syscall.Kill(s.pid, syscall.SIGUSR1)
	recs := waitRecords(b, s.log, "start", starts+1, 30*time.Second)
	started := recs[starts].at
	exits := waitRecords(b, s.log, "exit", starts, 5*time.Second)
	// A signal that comes between the agent's exec and the moment the
	// supervisor knows its agent finds none to restart: let it settle.
	time.Sleep(100 * time.Millisecond)
	return started.Sub(sent), started.Sub(exits[starts-1].at)
}

// extraProcesses starts n idle processes and ends them when the
// benchmark ends: a desktop's worth of processes for the walks to find.
func extraProcesses(b *testing.B, n int) {
	b.Helper()
	var cmds []*exec.Cmd
	for i := 0; i < n; i++ {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	b.Cleanup(func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	})
	time.Sleep(time.Second)
}

// BenchmarkRestart restarts the agent of superclaude and of gosup with
// SIGUSR1, interleaved, restartRounds times each, then again with 1,000
// extra idle processes on the machine; and times whole interactive runs
// (an agent that exits at once) against script(1) in both states. Goals:
// a restart ≤ 3× gosup's, and restarts and runs flat in the number of
// processes (≤ 1.2× with 1,000 more).
func BenchmarkRestart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		sc := r.superclaude(b, "")
		gs := r.gosup(b)
		time.Sleep(100 * time.Millisecond)
		measure := func() (scTotal, scOwn, gsTotal, gsOwn []time.Duration) {
			for j := 0; j < restartRounds; j++ {
				order := []*running{sc, gs}
				if j%2 == 1 {
					order = []*running{gs, sc}
				}
				for _, s := range order {
					total, own := restartTimes(b, s, j)
					if s == sc {
						scTotal, scOwn = append(scTotal, total), append(scOwn, own)
					} else {
						gsTotal, gsOwn = append(gsTotal, total), append(gsOwn, own)
					}
				}
			}
			return
		}
		runs := func() (scRun, scriptRun []time.Duration) {
			for j := 0; j < restartRounds; j++ {
				scRun = append(scRun, wholeRun(b, r, exec.Command(r.bin, "+run", "--profile", "generic", "--agent", "true")))
				scriptRun = append(scriptRun, wholeRun(b, r, exec.Command("script", "-qc", "true", "/dev/null")))
			}
			return
		}
		scT, scO, gsT, gsO := measure()
		scR, scriptR := runs()
		report(b, "restart p50: SIGUSR1 → new agent's exec", "gosup", pct(gsT, .5), pct(scT, .5), "ms", "≤ 3× gosup", pct(scT, .5) <= 3*pct(gsT, .5))
		report(b, "restart p99", "gosup", pct(gsT, .99), pct(scT, .99), "ms", "", false)
		report(b, "restart p50 after the agent's exit (the supervisor's own part)", "gosup", pct(gsO, .5), pct(scO, .5), "ms", "", false)
		report(b, "whole interactive run, agent exits at once (p50)", "script(1)", pct(scriptR, .5), pct(scR, .5), "ms", "", false)

		extraProcesses(b, 1000)
		scT2, scO2, gsT2, _ := measure()
		scR2, scriptR2 := runs()
		report(b, "restart p50, 1,000 extra processes", "gosup", pct(gsT2, .5), pct(scT2, .5), "ms", "≤ 3× gosup", pct(scT2, .5) <= 3*pct(gsT2, .5))
		report(b, "restart p99, 1,000 extra processes", "gosup", pct(gsT2, .99), pct(scT2, .99), "ms", "", false)
		report(b, "restart p50, 1,000 extra processes vs none", "superclaude, none", pct(scT, .5), pct(scT2, .5), "ms", "flat (≤ 1.2×)", pct(scT2, .5) <= 1.2*pct(scT, .5))
		report(b, "restart p50 after the agent's exit, 1,000 extra vs none", "superclaude, none", pct(scO, .5), pct(scO2, .5), "ms", "", false)
		report(b, "whole run p50, 1,000 extra processes", "script(1)", pct(scriptR2, .5), pct(scR2, .5), "ms", "", false)
		report(b, "whole run p50, 1,000 extra processes vs none", "superclaude, none", pct(scR, .5), pct(scR2, .5), "ms", "flat (≤ 1.2×)", pct(scR2, .5) <= 1.2*pct(scR, .5))
	}
}

// wholeRun runs cmd on a new pty in the rig, start to exit.
func wholeRun(b *testing.B, r *rig, cmd *exec.Cmd) time.Duration {
	b.Helper()
	cmd.Dir, cmd.Env = r.dir, append(append([]string(nil), r.env...), "SUPERCLAUDE_PANE_ID=")
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
		}
	}()
	err = cmd.Wait()
	took := time.Since(start)
	f.Close()
	if err != nil {
		b.Fatalf("%v: %v", cmd.Args, err)
	}
	return took
}
