package main

import (
	"bytes"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// BenchmarkOneShot times one-shot runs as whole processes, exec to exit,
// agent directly and through superclaude, interleaved in a random order per
// round (issue 12). The agent is true(1) standing in for claude (its own
// cost is the same on every path; only superclaude's part differs):
//
//   - direct: `true --version`;
//   - version: `superclaude --version`, which hands the process over (exec);
//   - print: `superclaude -p hi`, which runs the agent as a child and sweeps
//     what it may leave behind;
//   - options-print: `superclaude --model x -p hi`, the same after an
//     option (claude's command line read as the supervisor reads it);
//   - go-exec: a static Go program that does nothing but exec the agent,
//     the floor of any wrapper written in Go (the runtime's start and an
//     exec from a threaded process).
//
// $SUPERCLAUDE_BENCH_BASELINE adds the same two through another build.
// Reported: each path's p50 and p90 in ms, and superclaude's overhead at
// p50 (goal ≤ 2 ms). Run it with -benchtime 400x.
func BenchmarkOneShot(b *testing.B) {
	agent, err := exec.LookPath("true")
	if err != nil {
		b.Skip("true(1) is not installed")
	}
	dir := b.TempDir()
	// A user's shell: none of superclaude's variables but these (the
	// benchmark's own, $SUPERCLAUDE_BENCH_BASELINE, would keep
	// internal/handover from taking the run, as any unknown one does).
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "SUPERCLAUDE_") })
	env = append(env, "SUPERCLAUDE_AGENT="+agent,
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"), "SUPERCLAUDE_SESSIONS_DIR="+filepath.Join(dir, "sessions"))
	type path struct {
		name string
		argv []string
		took []time.Duration
	}
	bin := testbin.Superclaude(b)
	paths := []*path{
		{name: "direct", argv: []string{agent, "--version"}},
		{name: "version", argv: []string{bin, "--version"}},
		{name: "print", argv: []string{bin, "-p", "hi"}},
		{name: "options-print", argv: []string{bin, "--model", "x", "-p", "hi"}},
		{name: "go-exec", argv: []string{goExecFloor(b, agent), "--version"}},
	}
	if base := os.Getenv(EnvBaseline); base != "" {
		paths = append(paths, &path{name: "baseline-version", argv: []string{base, "--version"}},
			&path{name: "baseline-print", argv: []string{base, "-p", "hi"}})
	}
	for _, p := range paths {
		cmd := exec.Command(p.argv[0], p.argv[1:]...)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil && !strings.HasPrefix(p.name, "baseline") {
			b.Fatalf("%s: %v\n%s", p.name, err, out.Bytes())
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, j := range mrand.Perm(len(paths)) {
			p := paths[j]
			cmd := exec.Command(p.argv[0], p.argv[1:]...)
			cmd.Env = env
			start := time.Now()
			// An older build may fail now and then (a lost exit status,
			// fixed since); only the build under test must not.
			if err := cmd.Run(); err != nil && !strings.HasPrefix(p.name, "baseline") {
				b.Fatalf("%s: %v", p.name, err)
			}
			p.took = append(p.took, time.Since(start))
		}
	}
	b.StopTimer()
	ms := func(d []time.Duration, q float64) float64 {
		return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000
	}
	for _, p := range paths {
		slices.Sort(p.took)
		b.ReportMetric(ms(p.took, 0.5), p.name+"-p50-ms")
		b.ReportMetric(ms(p.took, 0.9), p.name+"-p90-ms")
	}
	direct := ms(paths[0].took, 0.5)
	for _, p := range paths[1:] {
		b.ReportMetric(ms(p.took, 0.5)-direct, p.name+"-overhead-ms")
	}
}

// goExecFloor builds a static Go program that execs agent with its own
// arguments and nothing else.
func goExecFloor(b *testing.B, agent string) string {
	dir := b.TempDir()
	src := "package main\n\nimport (\n\t\"os\"\n\t\"syscall\"\n)\n\n" +
		"func main() {\n\tsyscall.Exec(" + strconv.Quote(agent) + ", append([]string{" + strconv.Quote(agent) + "}, os.Args[1:]...), os.Environ())\n\tos.Exit(127)\n}\n"
	for name, data := range map[string]string{"main.go": src, "go.mod": "module floor\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-o", "floor", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the Go floor: %v\n%s", err, out)
	}
	return filepath.Join(dir, "floor")
}
