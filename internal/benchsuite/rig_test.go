package benchsuite

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// rig is one sandbox: sessions, state, runtime and claude configuration
// directories of its own, and the environment superclaude runs in there
// (the suite's agent standing in for claude).
type rig struct {
	dir string
	env []string
	bin string
	n   int // programs started, for their log names
}

func newRig(b *testing.B) *rig {
	b.Helper()
	needLinux(b)
	dir := b.TempDir()
	rt, err := os.MkdirTemp("", "sc-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(rt) })
	env := slicesDelete(os.Environ(), "SUPERCLAUDE_", "CLAUDE_", "TMUX", "XDG_RUNTIME_DIR=", "TERM=")
	env = append(env, "SUPERCLAUDE_AGENT="+floor(b, "agent"),
		"SUPERCLAUDE_SESSIONS_DIR="+filepath.Join(dir, "sessions"),
		"SUPERCLAUDE_STATE_DIR="+filepath.Join(dir, "state"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(dir, "claude"),
		"XDG_RUNTIME_DIR="+rt, "TERM=tmux-256color",
		// A benchmark restarts on purpose, many times.
		"SUPERCLAUDE_MAX_RESTARTS=0")
	return &rig{dir: dir, env: env, bin: superclaude(b)}
}

// slicesDelete drops the entries of env that start with any of prefixes.
func slicesDelete(env []string, prefixes ...string) []string {
	var out []string
	for _, kv := range env {
		drop := false
		for _, p := range prefixes {
			if strings.HasPrefix(kv, p) {
				drop = true
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// running is a supervisor (superclaude or gosup) with the suite's agent,
// on a pty of its own.
type running struct {
	name string
	p    *testbin.PTY
	pid  int
	log  string
	// agentEnv is superclaude's variables as its agent got them: what a
	// status line or hook run by the agent would have.
	agentEnv []string
	// session is the name of the session superclaude's supervisor owns,
	// once looked up (sessionOf).
	session string
}

// start runs argv (superclaude, or gosup with the agent) in the rig, in
// pane ("" for none), and waits for its agent.
func (r *rig) start(b *testing.B, name, pane string, argv ...string) *running {
	b.Helper()
	r.n++
	log := filepath.Join(r.dir, "agent-"+strconv.Itoa(r.n)+".log")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = r.dir
	cmd.Env = append(append([]string(nil), r.env...), "BENCH_AGENT_LOG="+log, "SUPERCLAUDE_PANE_ID="+pane)
	p := testbin.StartPTY(b, cmd)
	recs := waitRecords(b, log, "start", 1, 30*time.Second)
	b.Cleanup(func() { p.Cmd.Process.Signal(syscall.SIGTERM) })
	return &running{name: name, p: p, pid: cmd.Process.Pid, log: log, agentEnv: recs[0].env}
}

func (r *rig) superclaude(b *testing.B, pane string) *running {
	return r.start(b, "superclaude", pane, r.bin)
}

func (r *rig) gosup(b *testing.B) *running {
	return r.start(b, "gosup", "", floor(b, "gosup"), floor(b, "agent"))
}

// callback runs superclaude's argv as the agent's child would, with
// stdin, and returns how long it took and what it used.
func (r *rig) callback(b *testing.B, s *running, stdin []byte, argv ...string) (time.Duration, time.Duration) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append([]string(nil), r.env...), s.agentEnv...)
	cmd.Stdin = bytes.NewReader(stdin)
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out)
	}
	return took, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func payload(b *testing.B, name string) []byte {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "claude", "testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}
