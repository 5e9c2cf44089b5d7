package benchsuite

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// restartRounds is how many restarts each supervisor does per measure.
const restartRounds = 20

// A way to ask a supervisor for a restart: SIGUSR1, or `+session
// restart` (with or without --now) from a shell of the same user, which
// reaches it over its control socket.
//
// `+session restart` starts the agent fresh, on the continuation prompt,
// and a fresh agent that never activates its session counts against the
// progress breaker (three in a row halt the session): after each such
// restart, untimed, the suite activates the session as claude's skill
// would (activates).
type asker struct {
	name      string
	ask       func(b *testing.B, r *rig, s *running)
	activates bool
}

var (
	bySignal = asker{name: "SIGUSR1", ask: func(b *testing.B, r *rig, s *running) { syscall.Kill(s.pid, syscall.SIGUSR1) }}
	byShell  = asker{name: "`+session restart`", ask: func(b *testing.B, r *rig, s *running) { sessionRestart(b, r, s) }, activates: true}
	byNow    = asker{name: "`+session restart --now`", ask: func(b *testing.B, r *rig, s *running) { sessionRestart(b, r, s, "--now") }, activates: true}
)

// sessionRestart runs `superclaude +session restart --session NAME` for
// s's session, from outside its agent, and waits for it to answer.
func sessionRestart(b *testing.B, r *rig, s *running, flags ...string) {
	b.Helper()
	cmd := exec.Command(r.bin, append([]string{"+session", "restart", "--session", sessionOf(b, r, s)}, flags...)...)
	cmd.Dir, cmd.Env = r.dir, append(append([]string(nil), r.env...), "SUPERCLAUDE_PANE_ID=")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
}

// sessionOf is the name of the session s's supervisor owns, from the
// state files in r's sessions directory.
func sessionOf(b *testing.B, r *rig, s *running) string {
	b.Helper()
	if s.session != "" {
		return s.session
	}
	root := filepath.Join(r.dir, "sessions")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		dirs, _ := os.ReadDir(root)
		for _, d := range dirs {
			data, err := os.ReadFile(filepath.Join(root, d.Name(), ".state.json"))
			if err != nil {
				continue
			}
			var st struct {
				PID int `json:"pid"`
			}
			if json.Unmarshal(data, &st) == nil && st.PID == s.pid {
				s.session = d.Name()
				return s.session
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatalf("no session of supervisor %d in %s", s.pid, root)
	return ""
}

// agentKnown waits until r's event log records the start of the agent pid:
// its supervisor knows it then, and a restart asked for from a shell is
// not refused with "no agent is running".
func agentKnown(b *testing.B, r *rig, pid int) {
	b.Helper()
	mark := []byte(`"kind":"agent-start"`)
	want := []byte(`"pid":` + strconv.Itoa(pid) + `,`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(filepath.Join(r.dir, "sessions", ".events.jsonl"))
		for _, line := range bytes.Split(data, []byte("\n")) {
			if bytes.Contains(line, mark) && bytes.Contains(line, want) {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("the event log never recorded the start of agent %d", pid)
}

// restartTimes asks s for a restart and returns the time from the asking
// to the new agent's start, and from the old agent's exit (its SIGTERM
// handled) to the new one's start.
func restartTimes(b *testing.B, r *rig, s *running, how asker) (total, afterExit time.Duration) {
	b.Helper()
	starts := len(waitRecords(b, s.log, "start", 1, time.Second))
	sent := time.Now()
	how.ask(b, r, s)
	recs := waitRecords(b, s.log, "start", starts+1, 30*time.Second)
	started := recs[starts].at
	exits := waitRecords(b, s.log, "exit", starts, 5*time.Second)
	// A request that comes between the agent's exec and the moment the
	// supervisor knows its agent finds none to restart: let it settle,
	// and wait (untimed) until superclaude's event log has the start.
	time.Sleep(100 * time.Millisecond)
	if s.name == "superclaude" {
		agentKnown(b, r, recs[starts].pid)
	}
	if how.activates {
		r.callback(b, s, nil, r.bin, "+session", "activate", sessionOf(b, r, s))
	}
	return started.Sub(sent), started.Sub(exits[starts-1].at)
}

// extraProcesses starts n idle processes, a desktop's worth of processes
// for the walks to find, and returns what ends them (which the benchmark's
// end does too).
func extraProcesses(b *testing.B, n int) (end func()) {
	b.Helper()
	var cmds []*exec.Cmd
	for i := 0; i < n; i++ {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var once sync.Once
	end = func() {
		once.Do(func() {
			for _, c := range cmds {
				c.Process.Kill()
				c.Wait()
			}
		})
	}
	b.Cleanup(end)
	time.Sleep(time.Second)
	return end
}

// BenchmarkRestart restarts the agent of superclaude and of gosup,
// interleaved, restartRounds times each — superclaude's with SIGUSR1, with
// `+session restart` from a shell and with its --now; gosup's with
// SIGUSR1, its only way — then again with 1,000
// extra idle processes on the machine; and times whole interactive runs
// (an agent that exits at once) against script(1) in both states. Goals:
// a restart ≤ 3× gosup's, and restarts and runs flat in the number of
// processes (≤ 1.2× with 1,000 more).
func BenchmarkRestart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := newRig(b)
		sc := r.superclaude(b, "")
		gs := r.gosup(b)
		sessionOf(b, r, sc) // looked up once, not timed
		time.Sleep(100 * time.Millisecond)
		// times[k] are the restarts asked for the k-th way (askers),
		// gosup's last; own[k] the same from the old agent's exit.
		askers := []asker{bySignal, byShell, byNow}
		measure := func() (times, own [][]time.Duration) {
			times, own = make([][]time.Duration, len(askers)+1), make([][]time.Duration, len(askers)+1)
			for j := 0; j < restartRounds; j++ {
				// gosup first in even rounds, last in odd ones.
				order := []int{len(askers), 0, 1, 2}
				if j%2 == 1 {
					order = []int{0, 1, 2, len(askers)}
				}
				for _, k := range order {
					var total, after time.Duration
					if k == len(askers) {
						total, after = restartTimes(b, r, gs, bySignal)
					} else {
						total, after = restartTimes(b, r, sc, askers[k])
					}
					times[k], own[k] = append(times[k], total), append(own[k], after)
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
		t0, o0 := measure()
		scR, scriptR := runs()
		g := len(askers)
		report(b, "restart p50: SIGUSR1 → new agent's exec", "gosup", pct(t0[g], .5), pct(t0[0], .5), "ms", "≤ 3× gosup", pct(t0[0], .5) <= 3*pct(t0[g], .5))
		report(b, "restart p99", "gosup", pct(t0[g], .99), pct(t0[0], .99), "ms", "", false)
		report(b, "restart p50 after the agent's exit (the supervisor's own part)", "gosup", pct(o0[g], .5), pct(o0[0], .5), "ms", "", false)
		for k := 1; k < g; k++ {
			report(b, "restart p50: "+askers[k].name+" → new agent's exec", "gosup (SIGUSR1)", pct(t0[g], .5), pct(t0[k], .5), "ms", "", false)
			report(b, "restart p50 after the agent's exit, "+askers[k].name, "gosup", pct(o0[g], .5), pct(o0[k], .5), "ms", "", false)
		}
		report(b, "whole interactive run, agent exits at once (p50)", "script(1)", pct(scriptR, .5), pct(scR, .5), "ms", "", false)

		end := extraProcesses(b, 1000)
		t1, o1 := measure()
		scR2, scriptR2 := runs()
		// Whole runs without the extra processes again, after them: the
		// figure without is taken on both sides of the one with, so that a
		// machine whose load changed meanwhile does not read as a cost of
		// the processes.
		end()
		time.Sleep(time.Second)
		scR3, _ := runs()
		scR = append(scR, scR3...)
		report(b, "restart p50, 1,000 extra processes", "gosup", pct(t1[g], .5), pct(t1[0], .5), "ms", "≤ 3× gosup", pct(t1[0], .5) <= 3*pct(t1[g], .5))
		report(b, "restart p99, 1,000 extra processes", "gosup", pct(t1[g], .99), pct(t1[0], .99), "ms", "", false)
		report(b, "restart p50, 1,000 extra processes vs none", "superclaude, none", pct(t0[0], .5), pct(t1[0], .5), "ms", "flat (≤ 1.2×)", pct(t1[0], .5) <= 1.2*pct(t0[0], .5))
		report(b, "restart p50 after the agent's exit, 1,000 extra vs none", "superclaude, none", pct(o0[0], .5), pct(o1[0], .5), "ms", "", false)
		for k := 1; k < g; k++ {
			report(b, "restart p50: "+askers[k].name+", 1,000 extra processes", "gosup (SIGUSR1)", pct(t1[g], .5), pct(t1[k], .5), "ms", "", false)
			report(b, "restart p50: "+askers[k].name+", 1,000 extra vs none", "superclaude, none", pct(t0[k], .5), pct(t1[k], .5), "ms", "flat (≤ 1.2×)", pct(t1[k], .5) <= 1.2*pct(t0[k], .5))
		}
		report(b, "whole run p50, 1,000 extra processes", "script(1)", pct(scriptR2, .5), pct(scR2, .5), "ms", "", false)
		report(b, "whole run p50, 1,000 extra processes vs none (before and after)", "superclaude, none", pct(scR, .5), pct(scR2, .5), "ms", "flat (≤ 1.2×)", pct(scR2, .5) <= 1.2*pct(scR, .5))
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
