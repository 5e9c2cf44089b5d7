package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fileCalls are the os functions that reach a file by path, following
// links and opening FIFOs as they go.
var fileCalls = map[string]bool{
	"Open": true, "OpenFile": true, "Create": true, "CreateTemp": true, "ReadFile": true,
	"WriteFile": true, "ReadDir": true, "Remove": true, "RemoveAll": true, "Rename": true,
	"Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Stat": true, "Lstat": true,
	"Chmod": true, "Chown": true, "Chtimes": true, "Truncate": true, "Symlink": true,
	"Link": true, "Readlink": true, "DirFS": true,
}

// TestFileAccessGoesThroughTheSafeWalk holds the package to the rule of
// safefile.go: no code but that file touches a path under the sessions
// root by name. A new os.ReadFile in index.go, say, would follow a link out
// of the root or hang on a FIFO; this test names it.
func TestFileAccessGoesThroughTheSafeWalk(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "safefile.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/gofrs/flock" {
				t.Errorf("%s imports %s: lock files go through dirRef.lock", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && fileCalls[sel.Sel.Name] {
				t.Errorf("%s: os.%s reaches a file by path; use the safe walk of safefile.go", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("only %d files checked", checked)
	}
}
