package envvar

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// AgentParentValue is written without the standard library (see the
// package doc); it must be what its doc says, as fmt and hash/fnv would
// write it, for every kind of argument.
func TestAgentParentValueIsTheFNV1aOfTheArguments(t *testing.T) {
	for _, args := range [][]string{nil, {""}, {"-p", "hi"}, {"--model", "x", "é\x00", ""}, {strings.Repeat("y", 5000)}} {
		h := fnv.New64a()
		for _, a := range args {
			h.Write([]byte(a))
			h.Write([]byte{0})
		}
		for _, pid := range []int{0, 7, 4242, 4194399} {
			want := fmt.Sprintf("%d:%d:%016x", pid, len(args), h.Sum64())
			if got := AgentParentValue(pid, args); got != want {
				t.Errorf("AgentParentValue(%d, %q) = %s, want %s", pid, args, got, want)
			}
		}
	}
}

// names matches a string that is a variable name of superclaude's
// protocol, or an environment entry of one (NAME=value). Prose that names
// a variable for a person (a command's help) is documentation, as the
// README is, and not matched.
var names = regexp.MustCompile(`^(` + Prefix + `[A-Z][A-Z0-9_]*|` + SupervisorPID + `|` + WatchdogPID + `|` + SessionRequired + `)(=|$)`)

// literalNames returns, for the Go source src, every string literal that
// spells one of the protocol's variable names, as "line: literal".
func literalNames(fset *token.FileSet, file string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && names.MatchString(s) {
			bad = append(bad, fmt.Sprintf("%d: %s", fset.Position(lit.Pos()).Line, lit.Value))
		}
		return true
	})
	return bad, nil
}

// TestNoVariableNameOutsideEnvvar: the product's code takes every variable
// name from this package. A literal elsewhere is a second source of the
// protocol, free to drift from the first (the agent-parent variable was
// spelt in child and in internal/handover, each with its own value's
// format). Tests may spell the names: they check the protocol from
// outside.
func TestNoVariableNameOutsideEnvvar(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(d.Name(), ".") && rel != ".", d.Name() == "testdata", rel == "testkit", rel == filepath.Join("internal", "envvar"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		bad, err := literalNames(fset, path, src)
		for _, b := range bad {
			t.Errorf("%s:%s spells a variable name: take it from internal/envvar", rel, b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read only %d Go files under %s", files, root)
	}
}

// The check above on made-up sources: one that let everything through
// would fail here.
func TestLiteralNamesAreFound(t *testing.T) {
	src := []byte(`package p
const a = "SUPERCLAUDE_AGENT"
var b = "WATCHDOG_PID=" + x
var c = "prose naming $SUPERCLAUDE_AGENT, SUPERCLAUDE_* and ` + "`SESSION_REQUIRED`" + `"
// a comment naming SUPERCLAUDE_SOCKET is prose
var d = envvar.Agent
var e = []string{` + "`SESSION_REQUIRED=1`" + `, "SUPERCLAUDE_"}
`)
	got, err := literalNames(token.NewFileSet(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`2: "SUPERCLAUDE_AGENT"`, `3: "WATCHDOG_PID="`, "7: `SESSION_REQUIRED=1`"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestImportsNothing: internal/handover imports this package and runs at
// init, before most of the program; an import here would run its
// initialisers first.
func TestImportsNothing(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pkgs {
		for name, f := range p.Files {
			n++
			for _, imp := range f.Imports {
				t.Errorf("%s imports %s", name, imp.Path.Value)
			}
		}
	}
	if n == 0 {
		t.Fatal("no source files read")
	}
}
