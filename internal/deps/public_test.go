package deps

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// public lists the packages a Go program outside this module can import:
// the library. Its exported names must be usable from there, so none may
// take, return or hold a type of an internal package, which the compiler
// refuses to let an outside program name.
var public = []string{"supervise", "state", "child", "watchdog", "proc"}

// internalRefs returns, sorted, every place where an exported name of the
// Go files src (file name → source) uses a name of an internal package:
// in a signature, a field of an exported struct, an interface, or the type
// or value of an exported variable or constant (which go doc shows).
func internalRefs(src map[string]string) ([]string, error) {
	fset := token.NewFileSet()
	var bad []string
	for name, text := range src {
		f, err := parser.ParseFile(fset, name, text, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		internal := map[string]string{} // local import name → path
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains(path, "/internal/") && !strings.HasPrefix(path, "internal/") {
				continue
			}
			local := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			internal[local] = path
		}
		if len(internal) == 0 {
			continue
		}
		report := func(where string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok {
					if path, ok := internal[x.Name]; ok {
						bad = append(bad, where+" uses "+path+"."+sel.Sel.Name)
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
					continue
				}
				report(name+": func "+d.Name.Name, d.Type)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								if len(fld.Names) == 0 || fld.Names[0].IsExported() {
									report(name+": type "+s.Name.Name, fld.Type)
								}
							}
							continue
						}
						report(name+": type "+s.Name.Name, s.Type)
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if s.Type != nil {
								report(name+": "+n.Name, s.Type)
							}
							if i < len(s.Values) {
								report(name+": "+n.Name, s.Values[i])
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(bad)
	return bad, nil
}

func exportedRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// TestPublicAPINamesNoInternalType: a program outside the module can use
// every exported name of the library. (Before the public boundary was
// settled, Config.Handlers needed internal/control and Profile.Status,
// Supervisor.Identity, Apply, state.FindByOwner, Mine and Lease and
// watchdog.Watch needed the Identity of proc, then internal.)
func TestPublicAPINamesNoInternalType(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, pkg := range public {
		files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("package %s: no Go files (%v)", pkg, err)
		}
		src := map[string]string{}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src[filepath.Join(pkg, filepath.Base(f))] = string(b)
		}
		bad, err := internalRefs(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Error(b)
		}
	}
}

// TestInternalRefsAreFound runs the check on made-up code: a check that
// let everything through would fail here.
func TestInternalRefsAreFound(t *testing.T) {
	src := map[string]string{"x.go": `package x
import (
	"context"
	"example.com/m/internal/control"
	ip "example.com/m/internal/proc"
)
type Handler func(ctx context.Context, req control.Request) control.Response
type Config struct {
	Handlers map[string]Handler
	Owner    ip.Identity
	hidden   ip.Identity
}
type T struct{}
func (T) Who() ip.Identity { return ip.Identity{} }
func (t) Fine() ip.Identity { return ip.Identity{} }
func helper(ip.Identity) {}
var Default = control.Request{}
const Name = control.OpPing
var fine = control.Request{}
`}
	got, err := internalRefs(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"x.go: Default uses example.com/m/internal/control.Request",
		"x.go: Name uses example.com/m/internal/control.OpPing",
		"x.go: func Who uses example.com/m/internal/proc.Identity",
		"x.go: type Config uses example.com/m/internal/proc.Identity",
		"x.go: type Handler uses example.com/m/internal/control.Request",
		"x.go: type Handler uses example.com/m/internal/control.Response",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
