// Package benchsuite is the one-command benchmark suite of issue 22: every
// figure of superclaude's that a person or a fleet feels — idle wakeups,
// restart latency, callbacks, ticks, starts among many sessions and many
// processes — measured beside its floor or peer in the same run, and
// printed as a ratio. `make bench-suite` runs it (with the relay's
// benchmarks from cmd/superclaude); docs/benchmarks.md has its figures.
//
// The floors are the suite's own, in testdata/, built when it runs:
// gofloor, a static Go program that reads its standard input and prints a
// line (the least any callback written in Go can cost), readfloor, which
// reads every session's state file and nothing else (the least a +status
// can cost), gosup, a 40-line
// Go supervisor that restarts its child on SIGUSR1 (the least a restart
// can cost), and agent, an agent that records its start and exit and
// otherwise idles. The machine is shared and has two cores: runs are
// interleaved, and ratios, not absolute times, are what to compare.
//
// Each benchmark logs its rows (a benchmark's log is always printed);
// they are printed again as one table after the benchmarks.
package benchsuite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/testkit/testbin"
)

func TestMain(m *testing.M) {
	reexec.AfterTests(printTable)
	reexec.Main(m)
}

// A row is one figure of the suite: superclaude's value beside its
// floor's or peer's, from the same run.
type row struct {
	figure, peer      string
	peerVal, scVal    float64
	unit, goal, ratio string
	met               string
}

var (
	rowsMu sync.Mutex
	rows   []row
)

// report records a figure and logs it. ratio is superclaude / peer unless
// the peer is zero; goal and met say what the issue asks and whether it
// holds ("" when the figure has no goal of its own).
func report(b *testing.B, figure, peer string, peerVal, scVal float64, unit, goal string, met bool) {
	b.Helper()
	r := row{figure: figure, peer: peer, peerVal: peerVal, scVal: scVal, unit: unit, goal: goal}
	switch {
	case peerVal > 0:
		r.ratio = fmt.Sprintf("%.2f×", scVal/peerVal)
	case scVal == 0:
		r.ratio = "="
	default:
		r.ratio = "–"
	}
	if goal != "" {
		r.met = map[bool]string{true: "met", false: "NOT met"}[met]
	}
	rowsMu.Lock()
	rows = append(rows, r)
	rowsMu.Unlock()
	b.Logf("%s: superclaude %s %s, %s %s %s, ratio %s, goal %s: %s", figure, num(scVal), unit, peer, num(peerVal), unit, r.ratio, goal, r.met)
}

func num(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 0.1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func printTable() {
	if len(rows) == 0 {
		return
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("\nbenchmark suite, %s, %d cores, load %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Println("| figure | floor / peer | peer | superclaude | ratio | goal | |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %s %s | %s %s | %s | %s | %s |\n", r.figure, r.peer, num(r.peerVal), r.unit, num(r.scVal), r.unit, r.ratio, r.goal, r.met)
	}
}

var (
	floorsOnce sync.Once
	floorsDir  string
	floorsErr  error
	binOnce    sync.Once
	bin        string
	binErr     error
)

// floor returns the path of one of the suite's own programs (testdata/),
// built static on first use, and installed (installed).
func floor(b *testing.B, name string) string {
	b.Helper()
	floorsOnce.Do(func() {
		floorsDir, floorsErr = os.MkdirTemp("", "sc-floors-")
		if floorsErr != nil {
			return
		}
		reexec.AfterTests(func() { os.RemoveAll(floorsDir) })
		for _, n := range []string{"gofloor", "gosup", "agent", "readfloor"} {
			built := filepath.Join(floorsDir, n+".built")
			cmd := exec.Command("go", "build", "-o", built, "./testdata/"+n)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				floorsErr = fmt.Errorf("building %s: %v\n%s", n, err, out)
				return
			}
			if floorsErr = install(built, filepath.Join(floorsDir, n)); floorsErr != nil {
				return
			}
		}
	})
	if floorsErr != nil {
		b.Fatal(floorsErr)
	}
	return filepath.Join(floorsDir, name)
}

// superclaude is the superclaude under test (testbin.Superclaude),
// installed as the floors are.
func superclaude(b *testing.B) string {
	b.Helper()
	floor(b, "gofloor") // makes floorsDir
	binOnce.Do(func() {
		bin = filepath.Join(floorsDir, "superclaude")
		binErr = install(testbin.Superclaude(b), bin)
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return bin
}

// install copies the program at from to to, with write(2), as an install
// does: every program the suite times runs as a copy. A program as the
// linker left it starts slower than the same bytes copied — by 0.3-0.5
// ms for superclaude on the 2-core machine (Linux 6.18), 0.2 ms for the
// Go floor — most likely because the linker writes its output through a
// mapping, which leaves the page cache holding it in small pieces that
// each take a fault of their own when the program starts. Timing the
// linker's files measured that, not the programs (docs/benchmarks.md).
func install(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}

// pct returns the p-th quantile of ds (sorted in place), in ms.
func pct(ds []time.Duration, p float64) float64 {
	slices.Sort(ds)
	if len(ds) == 0 {
		return 0
	}
	return float64(ds[int(p*float64(len(ds)-1)+0.5)].Nanoseconds()) / 1e6
}

// agentRecord is one line of the suite's agent's log.
type agentRecord struct {
	event string
	at    time.Time
	pid   int
	env   []string
}

func readAgentLog(path string) []agentRecord {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []agentRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 4)
		if len(parts) < 3 {
			continue
		}
		ns, _ := strconv.ParseInt(parts[1], 10, 64)
		pid, _ := strconv.Atoi(parts[2])
		r := agentRecord{event: parts[0], at: time.Unix(0, ns), pid: pid}
		if len(parts) == 4 && parts[3] != "" {
			r.env = strings.Split(parts[3], "\x1f")
		}
		out = append(out, r)
	}
	return out
}

// waitRecords waits until the log holds n records of event and returns
// them.
func waitRecords(b *testing.B, path, event string, n int, timeout time.Duration) []agentRecord {
	b.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var got []agentRecord
		for _, r := range readAgentLog(path) {
			if r.event == event {
				got = append(got, r)
			}
		}
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			b.Fatalf("timed out waiting for %d %q records in %s (have %d)", n, event, path, len(got))
		}
		time.Sleep(time.Millisecond)
	}
}

// procStatus reads one numeric field of /proc/PID/status ("VmRSS",
// "Threads").
func procStatus(pid int, field string) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return -1
}

// switches is the context switches of every thread of pid so far, from
// /proc/PID/task/*/status: each one a wakeup.
func switches(pid int) int64 {
	base := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, _ := os.ReadDir(base)
	var n int64
	for _, t := range tasks {
		data, err := os.ReadFile(filepath.Join(base, t.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			k, v, _ := strings.Cut(line, ":")
			if k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches" {
				x, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}

// cpuTime is the CPU time every thread of pid has used so far, from
// /proc/PID/task/*/schedstat (nanoseconds).
func cpuTime(pid int) time.Duration {
	base := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, _ := os.ReadDir(base)
	var n int64
	for _, t := range tasks {
		data, err := os.ReadFile(filepath.Join(base, t.Name(), "schedstat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(data))
		if len(f) > 0 {
			x, _ := strconv.ParseInt(f[0], 10, 64)
			n += x
		}
	}
	return time.Duration(n)
}

func needLinux(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the suite reads /proc: Linux only")
	}
}
