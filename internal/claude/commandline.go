package claude

import (
	"path/filepath"
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

// shells are the shells a script may be run with: `bash session.sh …` is
// session.sh.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true}

// program returns the command call runs and its arguments: a script run
// by a shell counts as the script.
func program(call []string) (string, []string) {
	prog := filepath.Base(call[0])
	if shells[prog] && len(call) > 1 && call[1] != "" && !strings.HasPrefix(call[1], "-") {
		call = call[1:]
		prog = filepath.Base(call[0])
	}
	if call[0] == "" {
		return "", nil
	}
	return prog, call[1:]
}

// is reports whether call runs one of commands: a program name
// ("session.sh") or a program and its first argument ("superclaude
// +session").
func is(call []string, commands []string) bool {
	prog, args := program(call)
	if prog == "" {
		return false
	}
	for _, c := range commands {
		name, sub, two := strings.Cut(c, " ")
		if prog == name && (!two || len(args) > 0 && args[0] == sub) {
			return true
		}
	}
	return false
}

// only reports whether the line is nothing but bookkeeping: it parses,
// every command in it is one of commands or a helper, at least one is one
// of commands, and nothing in it writes a file.
func (c commandLine) only(commands ...string) bool {
	if !c.parsed || c.writes {
		return false
	}
	found := false
	for _, call := range c.calls {
		switch {
		case is(call, commands):
			found = true
		case call[0] != "" && helpers[call[0]]:
		default:
			return false
		}
	}
	return found
}

// runs reports whether some command of the line is one of commands.
func (c commandLine) runs(commands ...string) bool {
	for _, call := range c.calls {
		if is(call, commands) {
			return true
		}
	}
	return false
}
