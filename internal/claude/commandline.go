package claude

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// commandLine is a Bash tool's command line as the guards judge it: parsed
// as a shell parses it (mvdan.cc/sh's parser, docs/design.md), so that a
// word is a command only where the shell would run it — never because it
// appears somewhere in the text (`echo superclaude +session; make build`
// used to pass as session bookkeeping).
type commandLine struct {
	// parsed is false when the line does not parse: nothing in it is
	// taken for bookkeeping.
	parsed bool
	// calls are the simple commands anywhere in the line — in a chain,
	// a pipeline, a subshell, a function body, a command substitution —
	// each as its words; a word that is not plain text (it expands a
	// variable, say) is "" and matches nothing.
	calls [][]string
	// writes is set when a redirection writes to a file other than
	// /dev/null and the like.
	writes bool
	// rebinds is set when the line can change what a later word of it
	// runs: it assigns a variable (`PATH=/tmp superclaude …`, `export
	// PATH=…`, `for PATH in …`, `${X:=…}`, arithmetic, which may assign)
	// or defines a function, which shadows a program of its name.
	rebinds bool
}

// parseCommandLine parses line as bash would.
func parseCommandLine(line string) commandLine {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return commandLine{}
	}
	c := commandLine{parsed: true}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				words := make([]string, len(n.Args))
				for i, w := range n.Args {
					words[i] = literal(w)
				}
				c.calls = append(c.calls, words)
			}
		case *syntax.Redirect:
			if writesFile(n) {
				c.writes = true
			}
		case *syntax.Assign, *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd, *syntax.ArithmExp,
			*syntax.FuncDecl, *syntax.ForClause, *syntax.CoprocClause:
			c.rebinds = true
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				c.rebinds = true
			}
		}
		return true
	})
	return c
}

// literal is the text of a word without expansions — plain, quoted or
// both — and "" for one that expands anything.
func literal(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// harmlessFiles are the files an output redirection may name without
// writing anything anyone keeps.
var harmlessFiles = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
		return r.Word == nil || !harmlessFiles[literal(r.Word)]
	}
	return false
}

// helpers may run beside bookkeeping in one line: they only print, or
// change directory (`printf … | superclaude +log`, `cd dir && …`).
var helpers = map[string]bool{"echo": true, "printf": true, "true": true, ":": true, "cd": true}

// helper reports whether call is one of helpers. printf is one only when
// its first argument is plain text other than -v: `printf -v PATH /tmp`
// assigns a variable.
func helper(call []string) bool {
	if call[0] == "printf" {
		return len(call) > 1 && call[1] != "" && !strings.HasPrefix(call[1], "-v")
	}
	return helpers[call[0]]
}

// is reports whether call runs superclaude itself — as self judges a
// program word (Policy.isSelf) — with one of subs ("+session", "+log") as
// its first argument. The subcommand is looked at first: only a call that
// could be bookkeeping costs self's look at the file system.
func is(call []string, self func(string) bool, subs []string) bool {
	if len(call) < 2 {
		return false
	}
	for _, s := range subs {
		if call[1] == s {
			return self(call[0])
		}
	}
	return false
}

// only reports whether the line is nothing but bookkeeping: it parses,
// nothing in it rebinds a name or writes a file, every command in it is
// superclaude with one of subs or a helper, and at least one is
// superclaude.
func (c commandLine) only(self func(string) bool, subs ...string) bool {
	if !c.parsed || c.writes || c.rebinds {
		return false
	}
	found := false
	for _, call := range c.calls {
		switch {
		case is(call, self, subs):
			found = true
		case helper(call):
		default:
			return false
		}
	}
	return found
}

// runs reports whether some command of the line is superclaude with one of
// subs. A line that rebinds names cannot say what its words run: it runs
// none of them.
func (c commandLine) runs(self func(string) bool, subs ...string) bool {
	if c.rebinds {
		return false
	}
	for _, call := range c.calls {
		if is(call, self, subs) {
			return true
		}
	}
	return false
}
