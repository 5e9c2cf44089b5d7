// Package reexec lets a test binary start itself again as a helper
// process: a stand-in agent, a supervisor to be killed, a process that
// ignores SIGTERM. Tests of process supervision need real processes with
// real PIDs, signals and terminals, and the test binary is the one
// program every test already has, built for the machine it runs on.
//
// Every TestMain of the module is reexec.Main: when the binary was started
// as a helper (the environment variable Var names a role) it runs that role
// and exits, otherwise it runs the tests, then the cleanups registered with
// AfterTests (a superclaude binary built for the tests is removed so), and
// exits with the tests' code.
//
// A role's value is its name, optionally followed by ":" and an argument
// the role reads ("exit:3"). A role that returns ends the process with 0;
// a role may also exit with a code of its own.
package reexec

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Var is the environment variable that names the role a re-executed test
// binary plays.
const Var = "REEXEC_ROLE"

// Roles maps a role's name to what the process does in it; the function
// gets the role's argument (empty when there is none).
type Roles map[string]func(arg string)

var (
	mu       sync.Mutex
	cleanups []func()
)

// AfterTests registers f to run after the tests of this binary, before it
// exits; a helper process never runs it.
func AfterTests(f func()) {
	mu.Lock()
	defer mu.Unlock()
	cleanups = append(cleanups, f)
}

// Main is the TestMain of a package whose tests start helpers: the roles
// of every table given are known (a later table's entry wins).
func Main(m *testing.M, roles ...Roles) {
	if v, ok := os.LookupEnv(Var); ok && v != "" {
		name, arg, _ := strings.Cut(v, ":")
		for i := len(roles) - 1; i >= 0; i-- {
			if f, ok := roles[i][name]; ok {
				f(arg)
				os.Exit(0)
			}
		}
		fmt.Fprintf(os.Stderr, "reexec: %s=%q names no role of this test binary\n", Var, v)
		os.Exit(2)
	}
	code := m.Run()
	mu.Lock()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	mu.Unlock()
	os.Exit(code)
}

// Env is the environment entry that makes this test binary play role with
// arg (none when arg is empty).
func Env(role, arg string) string {
	return Var + "=" + Value(role, arg)
}

// Value is Var's value for role with arg: for environments written
// elsewhere than in an exec.Cmd (a fleet file's env table).
func Value(role, arg string) string {
	if arg != "" {
		return role + ":" + arg
	}
	return role
}

// Args are the arguments that keep the test binary from running any test
// when it is started as a helper; they come before a helper's own.
func Args() []string { return []string{"-test.run=^$"} }

// Command runs this test binary as role with arg, in this process's
// environment and extra, with args after Args.
func Command(role, arg string, extra []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append(Args(), args...)...)
	cmd.Env = append(append(os.Environ(), Env(role, arg)), extra...)
	return cmd
}
