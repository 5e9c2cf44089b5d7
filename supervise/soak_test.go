package supervise

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestSoak runs one supervisor through -soak.restarts agent restarts and
// -soak.ticks status-line ticks over its control socket, and holds what
// a leak would grow — descriptors, memory, goroutines, files in the
// runtime and session directories, the log and the event log — to what
// it was after the first thousand of each (the logs to their rotation
// limits). Behind -soak: it takes minutes. Run it under the heavy lock:
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
	// An agent that ignores claude's arguments and waits to be killed.
	agent := filepath.Join(base, "agent")
	os.WriteFile(agent, []byte("#!/bin/sh\nexec sleep 3600\n"), 0o700)
	pol := DefaultPolicy
	pol.MaxRestarts, pol.DehydrateWait, pol.TurnWait = 0, 0, 0
	s, err := Start(context.Background(), Config{Profile: Claude, Command: agent, Store: store, Grace: 2 * time.Second,
		Socket: filepath.Join(rt, "s.sock"), Policy: pol, Log: slog.New(slog.NewTextHandler(lf, nil))})
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
	ticks := func(n int) {
		for range n {
			pct := 10 + (sent/1000)%60 // a new usage every thousand ticks: a write
			payload := strings.Replace(string(tick), `"used_percentage":18`, fmt.Sprintf(`"used_percentage":%d`, pct), 1)
			var line claude.LineInfo
			err := control.NewClient(s.socket, s.self).StatusLine(context.Background(), []byte(payload), &line)
			if err != nil {
				t.Fatalf("tick %d: %v", sent, err)
			}
			sent++
		}
	}
	var start soakFigures
	began := time.Now()
	for i := 1; i <= *soakRestarts; i++ {
		waitStarts(i)
		ticks(ticksPerRestart)
		if i == min(1000, *soakRestarts/2) {
			runtime.GC()
			start = measure(t, rt, stateDir, sessions, s.session())
			t.Logf("after %d restarts and %d ticks (%s): %v", i, sent, time.Since(began).Round(time.Second), start)
		}
		if !s.requestRestart("soak") {
			t.Fatalf("restart %d: no agent running", i)
		}
	}
	waitStarts(*soakRestarts + 1)
	ticks(*soakTicks - sent)
	runtime.GC()
	end := measure(t, rt, stateDir, sessions, s.session())
	t.Logf("after %d restarts and %d ticks (%s): %v", *soakRestarts, sent, time.Since(began).Round(time.Second), end)
	switch {
	case end.fds > start.fds+4:
		t.Errorf("descriptors grew from %d to %d", start.fds, end.fds)
	case end.goroutines > start.goroutines+8:
		t.Errorf("goroutines grew from %d to %d", start.goroutines, end.goroutines)
	case end.runtimeFiles != start.runtimeFiles:
		t.Errorf("files in the runtime dir went from %d to %d", start.runtimeFiles, end.runtimeFiles)
	case end.sessionFiles > start.sessionFiles+1:
		t.Errorf("files in the session dir went from %d to %d", start.sessionFiles, end.sessionFiles)
	case end.rssKB > start.rssKB+start.rssKB/2+8<<10:
		t.Errorf("RSS grew from %d to %d KiB", start.rssKB, end.rssKB)
	case end.logBytes > 2*logfile.MaxSize+1<<20:
		t.Errorf("the log is %d bytes, past its rotation", end.logBytes)
	case end.eventBytes > 2*state.MaxEventsSize+1<<20:
		t.Errorf("the event log is %d bytes, past its rotation", end.eventBytes)
	}
}
