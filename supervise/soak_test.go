package supervise

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/state"
)

var (
	soak         = flag.Bool("soak", false, "run TestSoak: many agent restarts and status-line ticks under one supervisor (minutes; figures in docs/benchmarks.md)")
	soakRestarts = flag.Int("soak.restarts", 10000, "agent restarts in TestSoak")
	soakTicks    = flag.Int("soak.ticks", 1000000, "status-line ticks in TestSoak")
)

// soakFigures are what must stay flat over a long run.
type soakFigures struct {
	fds, goroutines, runtimeFiles, sessionFiles int
	rssKB, logBytes, eventBytes                 int64
}

func (f soakFigures) String() string {
	return fmt.Sprintf("fds %d, RSS %d KiB, goroutines %d, files in the runtime dir %d, files in the session dir %d, log %d B, event log %d B",
		f.fds, f.rssKB, f.goroutines, f.runtimeFiles, f.sessionFiles, f.logBytes, f.eventBytes)
}

func measure(t *testing.T, rt, stateDir, sessions, session string) soakFigures {
	var f soakFigures
	fds, _ := os.ReadDir("/proc/self/fd")
	f.fds = len(fds)
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				f.rssKB, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
		}
	}
	f.goroutines = runtime.NumGoroutine()
	files, _ := os.ReadDir(rt)
	f.runtimeFiles = len(files)
	if session != "" {
		files, _ = os.ReadDir(filepath.Join(sessions, session))
		f.sessionFiles = len(files)
	}
	for _, n := range []string{logfile.Name, logfile.Name + ".1"} {
		if fi, err := os.Stat(filepath.Join(stateDir, n)); err == nil {
			f.logBytes += fi.Size()
		}
	}
	for _, n := range []string{state.EventsFile, state.EventsFile + ".1"} {
		if fi, err := os.Stat(filepath.Join(sessions, n)); err == nil {
			f.eventBytes += fi.Size()
		}
	}
	return f
}

// soakGrowth lists every figure of end that grew past what start allows:
// each is said, not only the first.
func soakGrowth(start, end soakFigures) []string {
	var grew []string
	if end.fds > start.fds+4 {
		grew = append(grew, fmt.Sprintf("descriptors grew from %d to %d", start.fds, end.fds))
	}
	if end.goroutines > start.goroutines+8 {
		grew = append(grew, fmt.Sprintf("goroutines grew from %d to %d", start.goroutines, end.goroutines))
	}
	if end.runtimeFiles != start.runtimeFiles {
		grew = append(grew, fmt.Sprintf("files in the runtime dir went from %d to %d", start.runtimeFiles, end.runtimeFiles))
	}
	if end.sessionFiles > start.sessionFiles+1 {
		grew = append(grew, fmt.Sprintf("files in the session dir went from %d to %d", start.sessionFiles, end.sessionFiles))
	}
	if end.rssKB > start.rssKB+start.rssKB/2+8<<10 {
		grew = append(grew, fmt.Sprintf("RSS grew from %d to %d KiB", start.rssKB, end.rssKB))
	}
	if end.logBytes > 2*logfile.MaxSize+1<<20 {
		grew = append(grew, fmt.Sprintf("the log is %d bytes, past its rotation", end.logBytes))
	}
	if end.eventBytes > 2*state.MaxEventsSize+1<<20 {
		grew = append(grew, fmt.Sprintf("the event log is %d bytes, past its rotation", end.eventBytes))
	}
	return grew
}

// soakAgent is the agent of the soak: it ignores claude's arguments,
// switches on what a full-screen CLI switches on — the alternate screen,
// bracketed paste, bold — and waits to be killed, so that every restart
// leaves the terminal for the supervisor to reset.
const soakAgent = "#!/bin/sh\nprintf '\\033[?1049h\\033[?2004h\\033[1m'\nexec sleep 3600\n"

// soakReset is the part of the supervisor's reset that switches the
// alternate screen off: one per agent that got to switch it on.
var soakReset = []byte("\x1b[?1049l")

// countingReader drains the terminal's far side, as a person's terminal
// would, counting the resets that reach it (a sequence split between two
// reads counted once).
type countingReader struct {
	mu   sync.Mutex
	tail []byte
	n    int
}

func (c *countingReader) drain(r io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		k, err := r.Read(buf)
		c.mu.Lock()
		b := append(c.tail, buf[:k]...)
		c.n += bytes.Count(b, soakReset)
		if i := bytes.LastIndex(b, soakReset); i >= 0 {
			b = b[i+len(soakReset):]
		}
		c.tail = append(c.tail[:0], b[max(0, len(b)-len(soakReset)+1):]...)
		c.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (c *countingReader) resets() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestSoak runs one supervisor, on a terminal of its own (a pty pair, the
// test reading the far side as a person's terminal would), through
// -soak.restarts agent restarts and -soak.ticks status-line ticks over its
// control socket, and holds what a leak would grow — descriptors, memory,
// goroutines, files in the runtime and session directories, the log and
// the event log — to what it was at the start: once the first agent runs
// and the first tick is answered (the logs to their rotation limits).
// Each agent runs under the session leader on a pty of its own and leaves
// terminal modes on, which the supervisor resets. The figures after the
// first thousand restarts are said too (the warm-up). Behind -soak: it
// takes minutes. Run it under the heavy lock:
//
//	flock /tmp/superclaude-heavy.lock go test -run TestSoak -soak -v -timeout 2h ./supervise
func TestSoak(t *testing.T) {
	if !*soak {
		t.Skip("the soak runs with -soak (docs/benchmarks.md)")
	}
	base := t.TempDir()
	rt, err := os.MkdirTemp("", "sc-soak-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	stateDir, sessions := filepath.Join(base, "state"), filepath.Join(base, "sessions")
	lf, err := logfile.Open(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	store, err := state.OpenIn(sessions, filepath.Join(stateDir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer slave.Close()
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 80})
	term := child.NewTerminal(slave, slave)
	if term == nil {
		t.Fatal("a pty is not a terminal?")
	}
	var screen countingReader
	go screen.drain(master)

	agent := filepath.Join(base, "agent")
	os.WriteFile(agent, []byte(soakAgent), 0o700)
	pol := DefaultPolicy
	pol.MaxRestarts, pol.DehydrateWait, pol.TurnWait = 0, 0, 0
	s, err := Start(context.Background(), Config{Profile: Claude, Command: agent, Store: store, Grace: 2 * time.Second,
		Terminal: term, Socket: filepath.Join(rt, "s.sock"), Policy: pol, Log: slog.New(slog.NewTextHandler(lf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Stop(true); s.Wait() }()

	tick, err := os.ReadFile(filepath.Join("..", "internal", "claude", "testdata", "statusline-after-turn-175k.json"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarts := func(n int) {
		for deadline := time.Now().Add(30 * time.Second); s.starts() < n || s.currentAgent() == nil; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("agent %d did not start", n)
			}
		}
	}
	ticksPerRestart := max(1, *soakTicks / *soakRestarts)
	sent := 0
	// A tick the supervisor has not answered within the client's second
	// is late: claude's status line shows nothing new that time and asks
	// again at the next tick. Late ticks are counted (on a machine other
	// runs share, one can be); more than one in ten thousand fails.
	late, slowest := 0, time.Duration(0)
	ticks := func(n int) {
		for range n {
			pct := 10 + (sent/1000)%60 // a new usage every thousand ticks: a write
			payload := strings.Replace(string(tick), `"used_percentage":18`, fmt.Sprintf(`"used_percentage":%d`, pct), 1)
			var line claude.LineInfo
			began := time.Now()
			err := control.NewClient(s.socket, s.self).StatusLine(context.Background(), []byte(payload), &line)
			slowest = max(slowest, time.Since(began))
			if errors.Is(err, os.ErrDeadlineExceeded) {
				late++
				t.Logf("tick %d late: %v", sent, err)
			} else if err != nil {
				t.Fatalf("tick %d: %v", sent, err)
			}
			sent++
		}
	}
	began := time.Now()
	at := func(what string) soakFigures {
		runtime.GC()
		f := measure(t, rt, stateDir, sessions, s.session())
		t.Logf("%s: %d restarts and %d ticks (%s): %v; terminal resets seen %d",
			what, s.starts()-1, sent, time.Since(began).Round(time.Second), f, screen.resets())
		return f
	}
	waitStarts(1)
	ticks(1)
	// The start is once the first agent's session exists, with what the
	// tick wrote to it: the agent service makes it as the agent starts,
	// a moment after the agent runs.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if name := s.session(); name != "" {
			if st, err := store.Load(name); err == nil && st.ContextUsage > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the first agent's session never took its tick")
		}
	}
	start := at("start")
	var warm soakFigures
	for i := 1; i <= *soakRestarts; i++ {
		waitStarts(i)
		ticks(ticksPerRestart - btoi(i == 1))
		if i == min(1000, *soakRestarts/2) {
			warm = at("warmed up")
		}
		if !s.requestRestart("soak", false) {
			t.Fatalf("restart %d: no agent running", i)
		}
	}
	waitStarts(*soakRestarts + 1)
	ticks(*soakTicks - sent)
	end := at("end")
	elapsed := time.Since(began)
	t.Logf("%.1f restarts/s, %.0f ticks/s over %s; slowest tick %s, %d late", float64(*soakRestarts)/elapsed.Seconds(),
		float64(sent)/elapsed.Seconds(), elapsed.Round(time.Second), slowest.Round(time.Millisecond), late)
	if late > sent/10000 {
		t.Errorf("%d of %d ticks were late", late, sent)
	}
	for _, g := range soakGrowth(start, end) {
		t.Errorf("from the start: %s", g)
	}
	for _, g := range soakGrowth(warm, end) {
		t.Logf("from the warm-up: %s", g)
	}
	// Every agent switched modes on before it was killed, but the
	// restart may come before the agent has written them: most, not all,
	// must have been reset.
	if r := screen.resets(); r < *soakRestarts/2 {
		t.Errorf("only %d of %d agents' terminal modes were seen reset", r, *soakRestarts)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
