package citations

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// repo is the set of files a citation can name: the repository's tracked
// files, and the directories that hold them.
type repo struct {
	files map[string]bool // slash-separated, relative to the root
	dirs  map[string]bool
	top   map[string]bool // the root's own entries: docs, internal, go.mod …
	text  map[string]string
	terms map[string]bool // explained by docs/glossary.md
}

func newRepo(files map[string]string) *repo {
	r := &repo{files: map[string]bool{}, dirs: map[string]bool{".": true}, top: map[string]bool{}, text: files,
		terms: terms(files["docs/glossary.md"])}
	for f := range files {
		r.files[f] = true
		r.top[strings.SplitN(f, "/", 2)[0]] = true
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			r.dirs[d] = true
		}
	}
	return r
}

// exists says whether p (clean, relative to the root) names a file or a
// directory of the repository; a pattern with * must match one file.
func (r *repo) exists(p string) bool {
	if strings.Contains(p, "*") {
		for f := range r.files {
			if ok, _ := path.Match(p, f); ok {
				return true
			}
		}
		return false
	}
	return r.files[p] || r.dirs[p]
}

// checkedExt are the endings of the repository's own kinds of file: a bare
// name with one of them is a citation of a file. TOML and JSON are not
// among them: the repository holds no TOML file, and its JSON files are
// test data, while both are the formats of the user's files (a fleet, the
// config, .state.json, Claude Code's settings), which the code names.
var checkedExt = map[string]bool{".go": true, ".md": true, ".yaml": true, ".yml": true, ".sh": true, ".txtar": true}

// outside are citations of documents that were never in the repository:
// the notes superclaude was specified from. What they say is written in
// docs/ or in place. The patterns are built from pieces so that this
// file's own comments do not match them.
var outside = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`\b` + "DESIGN" + `\.md\b`), "the design card is not in the repository: cite docs/design.md"},
	{regexp.MustCompile(`CLAUDE-CODE-` + `FACTS`), "the facts file is not in the repository: cite docs/design.md#what-we-rely-on-from-the-agent-clis"},
	{regexp.MustCompile(`AGENT-CLI-` + `FACTS`), "the facts file is not in the repository: cite docs/agent-clis.md"},
	{regexp.MustCompile(`shared/` + `(samples|seeds)`), "the shared directory is not in the repository"},
	{regexp.MustCompile(`(?i)\bseed\s+0` + `0\d(?:'s)?\s*(?:§|\d|S\d)`), "a section of a seed document, which is not in the repository: say it in place or cite docs/"},
}

// tokenRE matches a run of the characters a path is written with.
var tokenRE = regexp.MustCompile(`[A-Za-z0-9_.~$*<>{}@+/#…-]+`)

// problems returns every bad citation in the file name (relative to the
// root) whose searchable text is text: lines outside comments are blank
// for a Go file. Each is "file:line: reference: why".
func (r *repo) problems(name, text string) []string {
	var bad []string
	line := func(off int) int { return 1 + strings.Count(text[:off], "\n") }
	for _, o := range outside {
		for _, m := range o.re.FindAllStringIndex(text, -1) {
			bad = append(bad, fmt.Sprintf("%s:%d: %q: %s", name, line(m[0]), strings.Join(strings.Fields(text[m[0]:m[1]]), " "), o.why))
		}
	}
	for _, m := range tokenRE.FindAllStringIndex(text, -1) {
		tok := strings.TrimRight(strings.TrimLeft(text[m[0]:m[1]], "*"), "*.…-")
		target, frag, ok := r.reference(tok)
		if !ok {
			continue
		}
		at := fmt.Sprintf("%s:%d: %s: ", name, line(m[0]), tok)
		found, err := r.resolve(path.Dir(name), target)
		switch {
		case err != "":
			bad = append(bad, at+err)
		case frag != "" && strings.HasSuffix(found, ".md") && !headings(r.text[found])[frag]:
			bad = append(bad, at+found+" has no heading #"+frag)
		}
	}
	return bad
}

// resolve finds target, cited in the directory dir, beside the citing
// file or else at the root. err says why it is not found.
func (r *repo) resolve(dir, target string) (found, err string) {
	for _, base := range []string{dir, "."} {
		p := path.Join(base, target)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", "outside the repository"
		}
		if r.exists(p) {
			return p, ""
		}
	}
	return "", "no such file in the repository"
}

// reference says whether tok, a path's characters with the punctuation
// around them trimmed, cites a file of the repository, and which (with the
// #heading, if any, apart). The rules, each for a kind of text
// that looks like a path and is not a citation:
//
//   - a URL, or a path from the root of a machine, a home or a variable
//     (https://…, /proc/…, ~/.claude/…, $CLAUDE_CONFIG_DIR/…): the user's
//     files, not the repository's;
//   - a placeholder (<pid>, {a,b}, …): a shape of many paths;
//   - an import path of another module (github.com/…, golang.org/x/…): its
//     first element is a host name;
//   - a path with a slash whose first element is none of the root's
//     entries and whose file name is not of a kind the repository holds
//     (busy/idle, log/slog, sessions/X, .claude/settings.json,
//     ./bin/superclaude): prose, the standard library, or a path in the
//     user's project or working directory;
//   - a bare name of a file the repository's code writes or reads at run
//     time, not of a file of its own: a name docs/glossary.md explains;
//   - a file name's ending alone (_test.go), or a directory's name alone
//     that is none of the root's entries (testdata/, ../): a kind.
//
// A bare name is looked for beside the file that cites it and at the
// root; one elsewhere is cited with its path.
func (r *repo) reference(tok string) (target, frag string, ok bool) {
	if tok == "" || strings.ContainsAny(tok[:1], "/~$") || strings.ContainsAny(tok, "<>{}$…@+") {
		return "", "", false
	}
	target, frag, _ = strings.Cut(tok, "#")
	target = strings.TrimRight(target, ".")
	if target == "" {
		return "", "", false
	}
	ext := path.Ext(target)
	if len(ext) > 1 && unicode.IsUpper(rune(ext[1])) {
		// A package's name: internal/claude.AgentStatus names the
		// directory internal/claude.
		target, ext = strings.TrimSuffix(target, ext), ""
	}
	first, rest, slash := strings.Cut(target, "/")
	if !slash {
		if !checkedExt[ext] || strings.HasPrefix(target, "_") || r.terms[target] {
			return "", "", false // _test.go is a kind of file, not a file
		}
		return target, frag, true
	}
	if strings.Contains(first[1:], ".") && first != ".." {
		return "", "", false // a host: github.com/…
	}
	if rest == "" && !r.top[first] {
		return "", "", false // a kind of directory: testdata/, ../
	}
	if !r.top[first] && first != "testdata" && first != ".." && !checkedExt[ext] {
		return "", "", false
	}
	return target, frag, true
}

// terms returns the names a glossary explains between backquotes: the
// files superclaude writes at run time (DEHYDRATED_CONTEXT.md) and those
// of the scripts it replaces (run.sh). A bare name among them is a term,
// not a citation.
func terms(glossary string) map[string]bool {
	t := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`\\s/]+)`").FindAllStringSubmatch(glossary, -1) {
		t[m[1]] = true
	}
	return t
}

// headings returns the anchors GitHub gives the headings of a Markdown
// text: lower case, spaces to hyphens, punctuation dropped.
func headings(md string) map[string]bool {
	h := map[string]bool{}
	fenced := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, c := range strings.ToLower(title) {
			switch {
			case c == ' ':
				b.WriteByte('-')
			case c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
				b.WriteRune(c)
			}
		}
		h[b.String()] = true
	}
	return h
}

// comments returns src with everything but its comments' text blanked
// (newlines kept, so that an offset still gives the line).
func comments(src []byte) string {
	out := bytes.Repeat([]byte(" "), len(src))
	for i, c := range src {
		if c == '\n' {
			out[i] = '\n'
		}
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		off := file.Offset(pos)
		copy(out[off:], lit)
		copy(out[off:], "  ") // the // or /* itself
		if strings.HasPrefix(lit, "/*") {
			copy(out[off+len(lit)-2:], "  ")
		}
	}
	return string(out)
}

// root is the module's root directory.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/superclaude/superclaude\n")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod of github.com/superclaude/superclaude above the test's directory")
		}
		dir = up
	}
}

// tracked reads the repository's tracked files: their comments for a Go
// file, their whole text for a Markdown file, nothing for the others
// (which are only cited).
func tracked(t *testing.T, dir string) map[string]string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	files := map[string]string{}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		files[f] = ""
		switch path.Ext(f) {
		case ".go", ".md":
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in the index
			} else if err != nil {
				t.Fatal(err)
			}
			if path.Ext(f) == ".go" {
				files[f] = comments(b)
			} else {
				files[f] = string(b)
			}
		}
	}
	return files
}

// TestCitationsAreInTheRepository fails on every comment or document that
// cites a file the repository does not hold, a heading its Markdown file
// does not have, or one of the documents the project was specified from.
func TestCitationsAreInTheRepository(t *testing.T) {
	files := tracked(t, root(t))
	if len(files) < 100 {
		t.Fatalf("git ls-files listed only %d files", len(files))
	}
	r := newRepo(files)
	var bad []string
	for name, text := range files {
		bad = append(bad, r.problems(name, text)...)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestBadCitationsAreFound runs the check on a made-up repository: rules
// that let everything through, or a reader that missed a comment, would
// fail here.
func TestBadCitationsAreFound(t *testing.T) {
	files := map[string]string{
		"docs/design.md":   "# Design\n\n## The layers\n\nSee [the table](#the-layers), `supervise/decide.go` and docs/gone.md.\n",
		"docs/glossary.md": "| `run.sh` | the script superclaude replaces |\n",
		"supervise/decide.go": string(comments([]byte("package supervise\n\n" +
			"// Decide (docs/design.md#the-layers, docs/design.md#no-such-part;\n" +
			"// supervise/missing.go, decide.go, run.sh, _test.go, busy/idle,\n" +
			"// log/slog, github.com/x/y.go, https://example.com/a.md, /proc/1/stat,\n" +
			"// ~/.claude/settings.json, $HOME/x.md, sessions/<pid>.json, f.toml,\n" +
			"// ./sessions, internal/claude.AgentStatus, testdata/*.txtar) is the\n" +
			"// restart decision of seed\n" +
			"// 000 §9, written down in " + "DESIGN" + ".md and ../shared/notes.md.\n" +
			"func Decide() { _ = \"docs/not-a-comment.md\" }\n"))),
		"supervise/testdata/a.txtar": "",
		"internal/claude/doc.go":     "",
	}
	got := newRepo(files).problems("supervise/decide.go", files["supervise/decide.go"])
	got = append(got, newRepo(files).problems("docs/design.md", files["docs/design.md"])...)
	sort.Strings(got)
	want := []string{
		`docs/design.md:5: docs/gone.md: no such file in the repository`,
		`supervise/decide.go:8: "seed 000 §": a section of a seed document, which is not in the repository: say it in place or cite docs/`,
		`supervise/decide.go:9: "` + "DESIGN" + `.md": the design card is not in the repository: cite docs/design.md`,
		`supervise/decide.go:3: docs/design.md#no-such-part: docs/design.md has no heading #no-such-part`,
		`supervise/decide.go:4: supervise/missing.go: no such file in the repository`,
		`supervise/decide.go:9: ` + "DESIGN" + `.md: no such file in the repository`,
		`supervise/decide.go:9: ../shared/notes.md: outside the repository`,
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
