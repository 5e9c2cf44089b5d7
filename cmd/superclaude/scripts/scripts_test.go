// Package scripts runs superclaude's documented commands as a person types
// them, in testscript files (testdata/*.txtar: github.com/rogpeppe/go-internal
// /testscript, the format of the Go command's own tests): each file is a
// shell-like script of commands and the output they must give, run with the
// built superclaude on PATH, a home of its own, and a stand-in claude that
// says so when it is reached (so that a --help meant for superclaude and
// answered by claude shows). Where an agent must really run, the scripts
// name the fake agent (testkit/fakeagent, this test binary run again) as
// $SUPERCLAUDE_AGENT, or as codex and gemini on PATH; where a person needs
// a terminal, the script types into a pane of a tmux server of its own.
// examples_test.go checks that every example of the README's code blocks is
// run here; readme_test.go that every command and option the README names
// exists.
package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/reexec"
	"github.com/superclaude/superclaude/testkit/testbin"
)

func TestMain(m *testing.M) { reexec.Main(m, fakeagent.Roles()) }

// TestScripts runs testdata/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, params(t))
}

// params are the scripts' world: what Setup gives every script, the
// commands it adds and the conditions it answers.
//
// Environment: PATH has superclaude, the stand-in claude, and the fake
// agent as codex and gemini; $FAKEAGENT is the fake agent, logging to
// $WORK/agents.jsonl; HOME, superclaude's state, its runtime directory and
// tmux's sockets (TMUX_TMPDIR) are in $WORK, so that `tmux` and `tmux -L
// NAME` in a script are servers of its own, killed when it ends, with
// every process the script left. $GODIR is the go command's directory, and
// the go command's caches are the tests' (GOPROXY=off), for the scripts
// that build superclaude as the README does; clonerepo copies the module.
//
// Conditions: [tmux], [make], [git], [go] — installed.
func params(t *testing.T) testscript.Params {
	bin := filepath.Dir(testbin.Superclaude(t))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goCmd, _ := exec.LookPath("go")
	goEnv := map[string]string{"GOPROXY": "off", "GOTOOLCHAIN": "local"}
	if goCmd != "" {
		out, err := exec.Command(goCmd, "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
		if err != nil {
			t.Fatalf("go env: %v", err)
		}
		if f := strings.Fields(string(out)); len(f) == 3 {
			goEnv["GOCACHE"], goEnv["GOMODCACHE"], goEnv["GOPATH"] = f[0], f[1], f[2]
		}
	}
	return testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			home := filepath.Join(work, "home")
			claude := filepath.Join(work, "claude-bin")
			agents := filepath.Join(work, "agent-bin")
			for _, d := range []string{home, claude, agents} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					return err
				}
			}
			// claude, as far as these scripts need one: it names itself
			// and its arguments, so that a script sees what reached it.
			stub := "#!/bin/sh\necho \"CLAUDE RAN: $*\"\n"
			if err := os.WriteFile(filepath.Join(claude, "claude"), []byte(stub), 0o755); err != nil {
				return err
			}
			// The fake agent: this test binary in its role. A script of
			// its own, so that it has a name (fakeagent, codex, gemini)
			// and never runs this binary's tests.
			fake := fmt.Sprintf("#!/bin/sh\n%s exec %q \"$@\"\n", reexec.Env(fakeagent.Role, ""), self)
			for _, name := range []string{"fakeagent", "codex", "gemini"} {
				if err := os.WriteFile(filepath.Join(agents, name), []byte(fake), 0o755); err != nil {
					return err
				}
			}
			log := filepath.Join(work, "agents.jsonl")
			env.Setenv("PATH", bin+":"+claude+":"+agents+":/usr/bin:/bin")
			env.Setenv("SUPERCLAUDE", filepath.Join(bin, "superclaude"))
			env.Setenv("FAKEAGENT", filepath.Join(agents, "fakeagent"))
			env.Setenv(fakeagent.EnvLog, log)
			env.Setenv(fakeagent.EnvSuperclaude, filepath.Join(bin, "superclaude"))
			env.Setenv("HOME", home)
			env.Setenv("SHELL", "/bin/bash")
			env.Setenv("TERM", "dumb")
			env.Setenv("SUPERCLAUDE_STATE_DIR", filepath.Join(work, "state"))
			env.Setenv("XDG_RUNTIME_DIR", work)
			env.Setenv("TMUX_TMPDIR", work)
			// The go command, for make, in a home of the script's own:
			// the build and module caches of the tests', and nothing
			// from the network.
			env.Setenv("GODIR", filepath.Dir(goCmd))
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			// Nothing else of the test's environment reaches a script
			// (testscript starts from an empty one): no TMUX, no
			// SUPERCLAUDE_* of a superclaude the tests run under.
			var keys []string
			for _, kv := range env.Vars {
				k, _, _ := strings.Cut(kv, "=")
				keys = append(keys, k)
			}
			env.Values[envKeys{}] = keys
			env.Defer(func() { cleanUp(work, log) })
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfor":   waitFor,
			"clonerepo": cloneRepo,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "tmux", "make", "git", "go":
				_, err := exec.LookPath(cond)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	}
}

// waitFor is the command `waitfor REGEXP COMMAND [ARGS...]`: it runs the
// command again and again, for up to 30 seconds, until its standard output
// matches REGEXP (with `!`, until it no longer does), and leaves that run's
// output for stdout and stderr to check. What a person watches happen — a
// pane's screen, +status — takes its time. The runs before the last are
// made quietly, in the script's environment, so that a failing script's
// log is not thirty seconds of screens.
func waitFor(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: waitfor REGEXP COMMAND [ARGS...]")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	if err != nil {
		ts.Fatalf("waitfor: %v", err)
	}
	var environ []string
	for _, k := range scriptEnvKeys(ts) {
		environ = append(environ, k+"="+ts.Getenv(k))
	}
	path, err := ts.MkAbs(args[1]), error(nil)
	if !strings.Contains(args[1], "/") {
		path, err = lookPath(args[1], ts.Getenv("PATH"))
	}
	ts.Check(err)
	quiet := func() bool {
		cmd := exec.Command(path, args[2:]...)
		cmd.Env, cmd.Dir = environ, ts.MkAbs(".")
		out, _ := cmd.Output()
		return re.Match(out) != neg
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		last := time.Now().After(deadline)
		if quiet() || last {
			ts.Exec(args[1], args[2:]...)
			if re.MatchString(ts.ReadFile("stdout")) != neg {
				return
			}
			if last {
				what := "never matched"
				if neg {
					what = "still matches"
				}
				ts.Fatalf("waitfor: after 30s the output of %s %s %q", strings.Join(args[1:], " "), what, args[0])
			}
		}
	}
}

// envKeys is the key of the script's Values that holds the names of the
// variables Setup set.
type envKeys struct{}

var envLineRE = regexp.MustCompile(`(?m)^\s*env\s+([A-Za-z_][A-Za-z0-9_]*)=`)

// scriptEnvKeys names the variables of the script's environment: Setup's,
// and those the script sets with env (read from its file: testscript does
// not list its environment).
func scriptEnvKeys(ts *testscript.TestScript) []string {
	keys := append([]string(nil), ts.Value(envKeys{}).([]string)...)
	b, err := os.ReadFile(filepath.Join("testdata", ts.Name()+".txtar"))
	ts.Check(err)
	for _, m := range envLineRE.FindAllStringSubmatch(string(b), -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// lookPath finds file in the directories of path, as the script's exec
// would.
func lookPath(file, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on the script's PATH", file)
}

// cloneRepo is the command `clonerepo DIR`: it copies the module's files —
// the ones git tracks or would (not what .gitignore leaves out), as they
// are in the working tree — into DIR, for a script to build as a person
// who cloned the repository would.
func cloneRepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: clonerepo DIR")
	}
	root := moduleRoot()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	ts.Check(err)
	dst := ts.MkAbs(args[0])
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree, or a link
		}
		b, err := os.ReadFile(src)
		ts.Check(err)
		ts.Check(os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755))
		ts.Check(os.WriteFile(filepath.Join(dst, f), b, fi.Mode().Perm()))
	}
}

// cleanUp ends what a script left running: its tmux servers (every socket
// under its TMUX_TMPDIR) and, by the marks in their environments, the fake
// agents and the superclaudes it started.
func cleanUp(work, log string) {
	socks, _ := filepath.Glob(filepath.Join(work, fmt.Sprintf("tmux-%d", os.Getuid()), "*"))
	for _, s := range socks {
		exec.Command("tmux", "-S", s, "kill-server").Run()
	}
	for _, mark := range [][2]string{{fakeagent.EnvLog, log}, {"SUPERCLAUDE_STATE_DIR", filepath.Join(work, "state")}} {
		left, _ := proc.FindByEnv(mark[0], mark[1])
		for _, p := range left {
			proc.Signal(p.Identity, syscall.SIGKILL)
		}
	}
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}
