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
	// file is the parsed line; nil when it does not parse, and then
	// nothing in it is taken for bookkeeping.
	file *syntax.File
	// calls are the simple commands anywhere in the line — in a chain,
	// a pipeline, a subshell, a function body, a command substitution —
	// each as its words; a word that is not plain text (it expands a
	// variable, say) is "" and matches nothing.
	calls [][]string
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
	c := commandLine{file: f}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				words := make([]string, len(n.Args))
				for i, w := range n.Args {
					words[i], _ = literal(w)
				}
				c.calls = append(c.calls, words)
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

// literal is the value a word has for the shell when it expands nothing,
// and whether it is such a word: plain text, single quotes, double quotes
// holding plain text, or a mix. Anything the shell would change first is
// no literal, so that what is compared is what runs: an expansion of any
// kind, a backslash (`\-v` is -v to the shell, not to a comparison of the
// text), $'…' and $"…", and the characters of globs, braces and the
// tilde outside quotes.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\*?[]{}~`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(l.Value, `\`) {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// feeders may print into a pipe whose end is superclaude's +log or
// +session deactivate, which read the text to record on their standard
// input (`printf 'step\n' | superclaude +log`, `cat <<'EOF' | …`).
var feeders = map[string]bool{"echo": true, "printf": true, "cat": true}

// readsStdin reports whether call, superclaude's, reads what a pipe
// gives it: +log, and +session deactivate (the session's description).
func readsStdin(call []string) bool {
	return len(call) >= 2 && call[1] == "+log" || len(call) >= 3 && call[1] == "+session" && call[2] == "deactivate"
}

// bookkeeping judges a line against the one shape session bookkeeping
// has, a whitelist: nothing that is not on it passes, so that a new trick
// of the shell's needs no new rule here (issue 21's second hostile pass
// got `/proc/self/exe +session …`, `… >& FILE` and `printf \-v PATH …`
// through rules that listed what to refuse).
type bookkeeping struct {
	// self judges a program word: is it superclaude itself?
	self func(string) bool
	// subs are the subcommands that count ("+session", "+log").
	subs []string
	// found is set once a command of the line is superclaude's.
	found bool
}

// only reports whether the line is nothing but session bookkeeping: every
// command in it is superclaude itself (self) with one of subs as its first
// argument and literal arguments (literal), or echo, printf or cat with
// literal arguments printing into a pipe that ends in superclaude's +log
// or +session deactivate; the commands are joined by nothing but ;, &&,
// || and |; the only redirections are here-documents (of plain text) into
// superclaude or one of those printers, >/dev/null, 2>/dev/null and 2>&1.
// No assignment, no subshell, block, function, loop or test, no other
// program. At least one command is superclaude's.
func (c commandLine) only(self func(string) bool, subs ...string) bool {
	if c.file == nil {
		return false
	}
	b := &bookkeeping{self: self, subs: subs}
	for _, st := range c.file.Stmts {
		if !b.stmt(st, standalone) {
			return false
		}
	}
	return b.found
}

// Where a statement stands: alone (in a list), printing into a pipe, or
// at a pipe's end.
type place int

const (
	standalone place = iota
	feeding
	fed
)

func (b *bookkeeping) stmt(st *syntax.Stmt, at place) bool {
	if st == nil || st.Negated || st.Background || st.Coprocess || st.Cmd == nil {
		return false
	}
	switch cmd := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if len(st.Redirs) > 0 || at != standalone {
			return false
		}
		switch cmd.Op {
		case syntax.AndStmt, syntax.OrStmt:
			return b.stmt(cmd.X, standalone) && b.stmt(cmd.Y, standalone)
		case syntax.Pipe:
			return b.pipe(cmd)
		}
		return false
	case *syntax.CallExpr:
		if len(cmd.Assigns) > 0 || len(cmd.Args) == 0 {
			return false
		}
		call := make([]string, len(cmd.Args))
		for i, w := range cmd.Args {
			v, ok := literal(w)
			if !ok {
				return false
			}
			call[i] = v
		}
		isSelf := b.isSelf(call)
		switch {
		case isSelf && (at != fed || readsStdin(call)):
			b.found = true
		case !isSelf && at == feeding && feeders[call[0]] && (call[0] != "printf" || len(call) > 1 && !strings.HasPrefix(call[1], "-")):
			// printf's options (-v NAME) assign.
		default:
			return false
		}
		for _, r := range st.Redirs {
			if !harmless(r) {
				return false
			}
		}
		return true
	}
	return false
}

// pipe judges a pipeline: every stage but the last prints into the next,
// and the last is superclaude reading what it is given.
func (b *bookkeeping) pipe(cmd *syntax.BinaryCmd) bool {
	var stages []*syntax.Stmt
	var flatten func(*syntax.Stmt) bool
	flatten = func(st *syntax.Stmt) bool {
		if p, ok := st.Cmd.(*syntax.BinaryCmd); ok && p.Op == syntax.Pipe {
			if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
				return false
			}
			return flatten(p.X) && flatten(p.Y)
		}
		stages = append(stages, st)
		return true
	}
	if !flatten(cmd.X) || !flatten(cmd.Y) {
		return false
	}
	for i, st := range stages {
		at := feeding
		if i == len(stages)-1 {
			at = fed
		}
		if !b.stmt(st, at) {
			return false
		}
	}
	return true
}

// isSelf reports whether call runs superclaude itself with one of the
// subcommands. The subcommand is looked at first: only a call that could
// be bookkeeping costs self's look at the file system.
func (b *bookkeeping) isSelf(call []string) bool {
	return is(call, b.self, b.subs)
}

// harmless reports whether a redirection may stand in bookkeeping: a
// here-document or here-string of plain text (no expansion in it), output
// or errors to /dev/null, errors to the output.
func harmless(r *syntax.Redirect) bool {
	n := ""
	if r.N != nil {
		n = r.N.Value
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if _, ok := literal(r.Word); !ok || n != "" {
			return false
		}
		if r.Hdoc == nil {
			return true
		}
		for _, p := range r.Hdoc.Parts {
			if _, ok := p.(*syntax.Lit); !ok {
				return false // $(…), ${…}, `…`: an unquoted delimiter expands
			}
		}
		return true
	case syntax.WordHdoc:
		_, ok := literal(r.Word)
		return ok && n == ""
	case syntax.RdrOut:
		w, ok := literal(r.Word)
		return ok && w == "/dev/null" && (n == "" || n == "1" || n == "2")
	case syntax.DplOut:
		w, ok := literal(r.Word)
		return ok && n == "2" && w == "1"
	}
	return false
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
