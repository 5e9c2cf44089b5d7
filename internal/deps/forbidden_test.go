package deps

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The forbidden dependencies, in the style of tailscale's tstest/deptest:
// for a set of packages, what they must never reach, directly or through
// any package they import, each with the reason. The layer table says
// which way imports point inside the module; this says what a package may
// pull in from anywhere. A key ending in "/..." forbids the package and
// every package under it.

// productBadDeps apply to everything that ships: the packages linked into
// cmd/superclaude and the library. (What may not be linked because it
// touches the terminal at init is init_test.go's.)
var productBadDeps = map[string]string{
	module + "/testkit/...":               "test doubles (fake APIs, fake agents, test worlds) are for tests only",
	"testing":                             "the testing package is for tests: a product package that links it holds a test helper",
	"github.com/rogpeppe/go-internal/...": "testscript runs the documented commands in tests; nothing else needs it",
	"net/http":                            "superclaude speaks no HTTP: its socket is a unix socket of its own protocol, and other hosts are reached with the user's ssh (docs/design.md#dependencies)",
	"golang.org/x/crypto/ssh":             "other hosts are reached with the user's own ssh client, its config, keys and known_hosts (docs/design.md#dependencies)",
	"github.com/gofrs/flock":              "state locks with flock(2) itself, in state/safefile.go (docs/design.md#dependencies)",
}

// libraryBadDeps apply to the public packages (the library, public_test.go)
// and to everything they import: a Go program that supervises an agent
// with them gets the supervision, not superclaude's program around it.
var libraryBadDeps = map[string]string{
	"github.com/spf13/cobra/...":          "the command line is the program's: a program using the library has its own",
	"charm.land/bubbletea/v2/...":         "the dashboard's terminal UI is the program's",
	"github.com/charmbracelet/...":        "the dashboard's drawing and colours are the program's",
	"github.com/BurntSushi/toml/...":      "fleet files and the config file are the program's formats",
	"github.com/godbus/dbus/...":          "desktop notifications are the program's (internal/notify); the library calls Config.OnAttention",
	module + "/internal/notify/...":       "notifying the person is the program's: the library calls Config.OnAttention",
	module + "/internal/logfile/...":      "where the log goes is the program's: the library logs to the slog.Logger it is given",
	module + "/internal/cli/...":          "words and columns for a person are the program's",
	module + "/internal/remote/...":       "other hosts are the program's",
	module + "/internal/doctor/...":       "checking an install is the program's",
	module + "/internal/handover/...":     "the one-shot hand-over runs from an init: linked into a program, it would run that program's arguments as an agent's",
	module + "/internal/callback/...":     "the callbacks are answered from an init: linked into a program, it would answer that program's +statusline and +hook arguments",
	"github.com/rogpeppe/go-internal/...": "testscript is for tests",
}

// lowBadDeps apply to state and proc, the floors a program reads sessions
// and process identity with: a view, a status line, a program's own tool.
// Such a program links them and nothing of the terminal, the supervision
// tree or the parsers above them.
var lowBadDeps = map[string]string{
	"github.com/creack/pty":         "the pty is child's",
	"golang.org/x/term":             "the terminal is child's",
	"github.com/thejerf/suture/...": "the supervision tree is supervise's",
	"mvdan.cc/sh/...":               "parsing a shell line is the guards' (internal/claude)",
	"github.com/fsnotify/...":       "watching files is the supervisor's (internal/fswatch)",
	"net":                           "nothing of sessions or process identity is on a socket",
}

// rule is one table applied to a set of packages (relative to the module).
type rule struct {
	pkgs []string
	bad  map[string]string
}

func rules() []rule {
	return []rule{
		{pkgs: nil, bad: productBadDeps}, // nil: every product package
		{pkgs: public, bad: libraryBadDeps},
		{pkgs: []string{"state", "proc"}, bad: lowBadDeps},
	}
}

// listDeps lists the module's packages by their names in the module,
// built for goos/goarch.
func listDeps(t *testing.T, goos, goarch string) map[string]pkg {
	t.Helper()
	pkgs := map[string]pkg{}
	for _, p := range listPackages(t, "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0") {
		name, _ := rel(p.ImportPath)
		pkgs[name] = p
	}
	return pkgs
}

// badDep returns the reason dep is forbidden by bad, if it is.
func badDep(dep string, bad map[string]string) (string, bool) {
	if why, ok := bad[dep]; ok && !strings.HasSuffix(dep, "/...") {
		return why, true
	}
	for k, why := range bad {
		if prefix, ok := strings.CutSuffix(k, "/..."); ok && (dep == prefix || strings.HasPrefix(dep, prefix+"/")) {
			return why, true
		}
	}
	return "", false
}

// product lists what ships: the module's packages linked into
// cmd/superclaude, and the library's.
func product(pkgs map[string]pkg) []string {
	set := map[string]bool{"cmd/superclaude": true}
	for _, p := range public {
		set[p] = true
		for _, d := range pkgs[p].Deps {
			if name, ours := rel(d); ours {
				set[name] = true
			}
		}
	}
	for _, d := range pkgs["cmd/superclaude"].Deps {
		if name, ours := rel(d); ours {
			set[name] = true
		}
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// forbidden returns every dependency of pkgs that a rule forbids, as
// "package depends on dep: why".
func forbidden(pkgs map[string]pkg, rules []rule) []string {
	var bad []string
	for _, r := range rules {
		names := r.pkgs
		if names == nil {
			names = product(pkgs)
		}
		for _, name := range names {
			p, ok := pkgs[name]
			if !ok {
				bad = append(bad, "package "+name+" is not in the module: update the rules in forbidden_test.go")
				continue
			}
			for _, d := range p.Deps {
				if why, ok := badDep(d, r.bad); ok {
					bad = append(bad, fmt.Sprintf("%s depends on %s: %s", name, d, why))
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// leavesOnly returns every dependency of name outside the standard library,
// golang.org/x/sys (the system calls syscall lacks, with nothing to
// initialise) and the module's leaves (packages that import nothing of the
// module).
func leavesOnly(pkgs map[string]pkg, name string) []string {
	var bad []string
	for _, d := range pkgs[name].Deps {
		dep, ours := rel(d)
		switch {
		case ours:
			for _, imp := range pkgs[dep].Imports {
				if to, ours := rel(imp); ours {
					bad = append(bad, fmt.Sprintf("%s depends on %s, which imports %s: it may import only the module's leaves", name, dep, to))
				}
			}
		case strings.HasPrefix(d, "golang.org/x/sys/"):
		case strings.Contains(strings.SplitN(d, "/", 2)[0], "."):
			bad = append(bad, fmt.Sprintf("%s depends on %s: it may import only the standard library, x/sys and the module's leaves", name, d))
		}
	}
	return bad
}

// initEarly are the packages that do their work from an init, before the
// rest of the program initialises. Go initialises a package after all it
// imports; each import that is not a leaf moves the init later, behind the
// state store, cobra or the dashboard, and puts their cost in front of a
// one-shot run (internal/handover) or of the session leader that every
// agent's start waits for (child/internal/leader).
var initEarly = []string{"internal/handover", "child/internal/leader"}

// TestForbiddenDependencies checks the tables above on the packages as
// built for Linux and for macOS.
func TestForbiddenDependencies(t *testing.T) {
	for _, target := range [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}} {
		pkgs := listDeps(t, target[0], target[1])
		if len(product(pkgs)) < 20 {
			t.Fatalf("%s: found only %d product packages", target[0], len(product(pkgs)))
		}
		for _, msg := range forbidden(pkgs, rules()) {
			t.Errorf("%s: %s", target[0], msg)
		}
		for _, name := range initEarly {
			for _, msg := range leavesOnly(pkgs, name) {
				t.Errorf("%s: %s", target[0], msg)
			}
		}
	}
}

// TestForbiddenDependenciesAreFound runs the checks on made-up packages: a
// table or a check that let everything through would fail here.
func TestForbiddenDependenciesAreFound(t *testing.T) {
	pkgs := map[string]pkg{
		"cmd/superclaude": {Deps: []string{module + "/internal/launch", "fmt"}},
		"internal/launch": {Deps: []string{module + "/testkit/fakeagent", "testing"}},
		"state":           {Deps: []string{"github.com/creack/pty", "os"}},
		"proc":            {},
		"supervise":       {Deps: []string{"github.com/BurntSushi/toml/internal", "github.com/spf13/cobra"}},
		"child":           {},
		"watchdog":        {Deps: []string{"github.com/godbus/dbus/v5"}},
		"internal/handover": {
			Imports: []string{module + "/internal/envvar", module + "/internal/config"},
			Deps:    []string{module + "/internal/envvar", module + "/internal/config", "mvdan.cc/sh/v3/syntax", "golang.org/x/sys/unix", "os"},
		},
		"internal/config": {Imports: []string{module + "/internal/envvar"}},
		"internal/envvar": {},
	}
	got := forbidden(pkgs, rules())
	got = append(got, leavesOnly(pkgs, "internal/handover")...)
	want := []string{
		"internal/launch depends on github.com/superclaude/superclaude/testkit/fakeagent: " + productBadDeps[module+"/testkit/..."],
		"internal/launch depends on testing: " + productBadDeps["testing"],
		"state depends on github.com/creack/pty: " + lowBadDeps["github.com/creack/pty"],
		"supervise depends on github.com/BurntSushi/toml/internal: " + libraryBadDeps["github.com/BurntSushi/toml/..."],
		"supervise depends on github.com/spf13/cobra: " + libraryBadDeps["github.com/spf13/cobra/..."],
		"watchdog depends on github.com/godbus/dbus/v5: " + libraryBadDeps["github.com/godbus/dbus/..."],
		"internal/handover depends on internal/config, which imports internal/envvar: it may import only the module's leaves",
		"internal/handover depends on mvdan.cc/sh/v3/syntax: it may import only the standard library, x/sys and the module's leaves",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
