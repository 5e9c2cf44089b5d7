package reexec_test

import (
	"os"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/reexec"
)

func TestMain(m *testing.M) {
	reexec.Main(m,
		reexec.Roles{"echo": func(arg string) { os.Stdout.WriteString("first " + arg) }},
		reexec.Roles{
			"echo": func(arg string) { os.Stdout.WriteString("second " + arg) },
			"fail": func(string) { os.Exit(7) },
		})
}

func TestARoleRunsWithItsArgumentAndTheLaterTableWins(t *testing.T) {
	out, err := reexec.Command("echo", "a:b", nil).Output()
	if err != nil || string(out) != "second a:b" {
		t.Fatalf("got %q, %v; want %q", out, err, "second a:b")
	}
}

func TestARoleEndsWithItsOwnCode(t *testing.T) {
	err := reexec.Command("fail", "", nil).Run()
	if code := exitCode(err); code != 7 {
		t.Fatalf("exit %d (%v), want 7", code, err)
	}
}

// A role no table knows must not fall through to running the tests: that
// would start the whole suite again in every helper.
func TestAnUnknownRoleIsAnError(t *testing.T) {
	out, err := reexec.Command("nonesuch", "", nil).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "names no role") {
		t.Fatalf("exit %d, %q; want 2 and a message", code, out)
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(interface{ ExitCode() int }); ok {
		return ee.ExitCode()
	}
	return -1
}
