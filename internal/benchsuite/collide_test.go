package benchsuite

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// deadSessions writes n sessions whose owners are dead — their PIDs are
// given by pidOf, each recorded with a start time no process has — straight
// to disk in r's sessions directory, and indexes them as superclaude's own
// writes would have.
func deadSessions(b *testing.B, r *rig, n int, pidOf func(i int) int) {
	b.Helper()
	root := filepath.Join(r.dir, "sessions")
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, fmt.Sprintf("2026_11_25_dead%05d", i))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		st := map[string]any{"pid": pidOf(i), "pidStart": 1, "skill": "implement", "lifecycle": "active",
			"startedAt": "2026-11-25T10:00:00Z", "activatedAt": time.Date(2026, 11, 25, 10, 0, 0, i, time.UTC).Format(time.RFC3339Nano),
			"sessionId": "conv-" + strconv.Itoa(i), "contextUsage": 0.3}
		body, _ := json.Marshal(st)
		if err := os.WriteFile(filepath.Join(dir, state.StateFile), body, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	s, err := state.OpenIn(root, filepath.Join(r.dir, "state", "index"))
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Reindex(); err != nil {
		b.Fatal(err)
	}
}

// pidBand returns the i-th of n PIDs from start on, wrapping as the
// kernel does ([300, pid_max)), skipping none.
func pidBand(start, i int) int {
	max := 32768
	if data, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		max, _ = strconv.Atoi(strings.TrimSpace(string(data)))
	}
	return 300 + ((start-300+i)%(max-300)+(max-300))%(max-300)
}

func lastPID() int {
	data, _ := os.ReadFile("/proc/sys/kernel/ns_last_pid")
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

// BenchmarkCollidingPIDs puts 10,000 sessions of dead supervisors in two
// rigs. In one, their PIDs are the next 10,000 the kernel will hand out
// and the suite's own (every caller's PID then collides with a dead
// owner's, as PID reuse makes common with many sessions); in the other,
// PIDs far from those. It times, interleaved, a status-line tick with no
// supervisor (its owner is its parent, the suite), a `+session activate`
// from a shell, and a supervisor's start and exit (agent true), in each.
// Goal: a tick with colliding PIDs within 1.2× of one without. It also
// times `+status --json` over the 10,000 sessions with owners, against
// the same number without owners and against readfloor, which only reads
// their files. Goal: ≤ 100 ms.
func BenchmarkCollidingPIDs(b *testing.B) {
	for i := 0; i < b.N; i++ {
		const n = 10000
		collide, apart, ownerless := newRig(b), newRig(b), newRig(b)
		start, self := lastPID()+1, os.Getpid()
		deadSessions(b, collide, n, func(i int) int {
			if i == 0 {
				return self
			}
			return pidBand(start, i)
		})
		deadSessions(b, apart, n, func(i int) int {
			p := pidBand(start+16000, i)
			if p == self {
				p++
			}
			return p
		})
		deadSessions(b, ownerless, n, func(int) int { return 0 })
		tick := payload(b, "statusline-after-turn-175k.json")
		direct := func(r *rig, stdin []byte, argv ...string) time.Duration {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = append(append([]string(nil), r.env...), "SUPERCLAUDE_PANE_ID=")
			cmd.Dir = r.dir
			if stdin != nil {
				cmd.Stdin = strings.NewReader(string(stdin))
			}
			t := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %v\n%s", argv, err, out)
			}
			return time.Since(t)
		}
		var tc, ta, ac, aa, sc, sa, stO, stN []time.Duration
		for j := 0; j < 30; j++ {
			tc = append(tc, direct(collide, tick, collide.bin, "+statusline"))
			ta = append(ta, direct(apart, tick, apart.bin, "+statusline"))
		}
		for j := 0; j < 10; j++ {
			// From a shell: the session's owner is the shell, a new PID.
			act := func(r *rig) time.Duration {
				return direct(r, nil, "sh", "-c", r.bin+" +session activate new"+strconv.Itoa(j)+" implement >/dev/null; true")
			}
			ac = append(ac, act(collide))
			aa = append(aa, act(apart))
			run := func(r *rig) time.Duration {
				cmd := exec.Command(r.bin, "+run", "--profile", "generic", "--agent", "true")
				return wholeRun(b, r, cmd)
			}
			sc = append(sc, run(collide))
			sa = append(sa, run(apart))
		}
		var stF []time.Duration
		for j := 0; j < 10; j++ {
			stF = append(stF, direct(collide, nil, floor(b, "readfloor"), filepath.Join(collide.dir, "sessions")))
			stO = append(stO, direct(collide, nil, collide.bin, "+status", "--json"))
			stN = append(stN, direct(ownerless, nil, ownerless.bin, "+status", "--json"))
		}
		report(b, "tick p50, 10,000 dead sessions, colliding PIDs", "PIDs apart", pct(ta, .5), pct(tc, .5), "ms", "≤ 1.2×", pct(tc, .5) <= 1.2*pct(ta, .5))
		report(b, "tick max, colliding PIDs", "PIDs apart", pct(ta, 1), pct(tc, 1), "ms", "", false)
		report(b, "`+session activate` p50, colliding PIDs", "PIDs apart", pct(aa, .5), pct(ac, .5), "ms", "", false)
		report(b, "supervisor start to exit p50, colliding PIDs", "PIDs apart", pct(sa, .5), pct(sc, .5), "ms", "", false)
		report(b, "supervisor start to exit max, colliding PIDs", "PIDs apart", pct(sa, 1), pct(sc, 1), "ms", "", false)
		report(b, "`+status --json` p50, 10,000 sessions with owners", "without owners", pct(stN, .5), pct(stO, .5), "ms", "≤ 100 ms", pct(stO, .5) <= 100)
		report(b, "`+status --json` p50, 10,000 sessions with owners, against reading their files", "readfloor", pct(stF, .5), pct(stO, .5), "ms", "", false)
	}
}
