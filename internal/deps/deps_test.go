package deps

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/superclaude/superclaude"

// layer ranks every package of the module: a package may import only
// packages of a lower layer. A new package must be given its layer here,
// which is the moment to decide where it belongs.
var layer = map[string]int{
	"internal/envvar":     0,
	"internal/lookpath":   0,
	"proc":                0,
	"internal/guard":      0,
	"internal/tmux":       0,
	"internal/termtext":   0,
	"internal/claudeargs": 0,
	"internal/safefs":     0,
	"internal/version":    0,
	"internal/logfile":    2,
	"internal/fswatch":    0,
	"internal/alarm":      0,
	"internal/rawjson":    0,

	"internal/handover": 1,

	"internal/config":  1,
	"internal/control": 1,
	"state":            1,
	// The session leader, run from its init before the heavy packages
	// initialise: below child, which starts it.
	"child/internal/leader": 1,
	"child":                 2,
	"watchdog":              2,

	"internal/notify": 2,
	"internal/claude": 2,
	"internal/cli":    2,
	// The person's prompts in Codex's and Gemini CLI's own files.
	"internal/prompts": 2,
	"internal/remote":  2,

	"supervise": 3,
	// +doctor: the install as the shell finds it, superclaude's
	// directories (config, control) among it, and the notifications it
	// checks (internal/notify's config and buses).
	"internal/doctor": 3,
	// Every session of the user: which one a command means, and all of
	// them for the views.
	"internal/sessions": 3,
	// What Claude Code calls back into: status line, hooks, +log.
	"internal/agentside": 4,
	"internal/dashboard": 4,

	// A fleet file names agent profiles: fleet reads supervise's table.
	"internal/fleet": 4,
	// Starting a supervised or one-shot run.
	"internal/launch": 5,
	// Claude's callbacks answered from an init, before the heavy packages
	// initialise: above agentside, which answers them.
	"internal/callback": 5,
	// The hosts the user's fleets run on: views that cover them, the
	// commands that run there, and this machine's answers to another.
	"internal/hosts": 5,

	"cmd/superclaude": 6,

	// Test support: above everything, so nothing but tests reaches it.
	"testkit":             7,
	"testkit/reexec":      7,
	"testkit/fakeapi":     7,
	"testkit/fakeopenai":  8,
	"testkit/fakegemini":  8,
	"testkit/fakeserver":  7,
	"testkit/sshworld":    7,
	"testkit/termshot":    7,
	"testkit/fakeagent":   8,
	"testkit/testbin":     8,
	"testkit/fleetworld":  9,
	"internal/deps":       10,
	"internal/citations":  10,
	"e2e":                 10,
	"internal/benchsuite": 10,

	"cmd/superclaude/apptest": 10,
	"cmd/superclaude/scripts": 10,
	// The release snapshot's tests (GoReleaser's archives, install.sh).
	"internal/release": 10,
}

type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string // every package it depends on, directly or not
}

// listPackages lists the module's packages, built for the environment's
// GOOS and GOARCH with env's settings added (what a package links differs
// between Linux and macOS).
func listPackages(t *testing.T, env ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(out)
	var pkgs []pkg
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	return strings.CutPrefix(path, module+"/")
}

// upward lists every import in pkgs that does not point to a lower layer,
// and every package the table leaves out.
func upward(pkgs []pkg, layer map[string]int) []string {
	var bad []string
	for _, p := range pkgs {
		name, _ := rel(p.ImportPath)
		from, ok := layer[name]
		if !ok {
			bad = append(bad, "package "+name+" has no layer: add it to the table in deps_test.go")
			continue
		}
		for _, imp := range p.Imports {
			to, ours := rel(imp)
			if !ours {
				continue
			}
			l, ok := layer[to]
			switch {
			case !ok:
				bad = append(bad, name+" imports "+to+", which has no layer")
			case l >= from:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports must point down", name, from, to, l))
			}
		}
	}
	return bad
}

// TestImportDirection fails when a package imports one of its own layer or
// above: an import pointing upward, which would let the layering drift.
func TestImportDirection(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < len(layer)/2 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, msg := range upward(pkgs, layer) {
		t.Error(msg)
	}
}

// TestUpwardImportsAreFound runs the check on made-up packages: a table
// that let everything through would fail here.
func TestUpwardImportsAreFound(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: module + "/state", Imports: []string{module + "/supervise", "fmt"}},
		{ImportPath: module + "/proc", Imports: []string{module + "/internal/tmux"}},
		{ImportPath: module + "/supervise", Imports: []string{module + "/state", module + "/internal/new"}},
		{ImportPath: module + "/internal/new"},
	}
	got := upward(pkgs, layer)
	want := []string{
		"state (layer 1) imports supervise (layer 3): imports must point down",
		"proc (layer 0) imports internal/tmux (layer 0): imports must point down",
		"supervise imports internal/new, which has no layer",
		"package internal/new has no layer: add it to the table in deps_test.go",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

// TestTestDoublesStayInTests: product code never imports testkit; only
// _test.go files do.
func TestTestDoublesStayInTests(t *testing.T) {
	for _, p := range listPackages(t) {
		name, _ := rel(p.ImportPath)
		if strings.HasPrefix(name, "testkit/") || name == "internal/deps" || name == "e2e" {
			continue
		}
		for _, imp := range p.Imports {
			if to, ours := rel(imp); ours && strings.HasPrefix(to, "testkit/") {
				t.Errorf("product package %s imports the test double %s", name, to)
			}
		}
	}
}
