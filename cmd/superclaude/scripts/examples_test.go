package scripts

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Every README example is run in CI (issue 19): each command line of the
// README's code blocks — superclaude's own, and the shell lines of Install
// — is run by a script of testdata/*.txtar as it is typed there, or is one
// of notRunHere, which says why and where it is checked instead. A code
// block that holds no commands is one of pictures. So an example added to
// the README without a script that runs it fails here.
//
// A line is matched:
//
//   - written out (no placeholder, no [option]): a script runs exactly
//     these words (exec superclaude +run --profile codex -- exec 'fix it'),
//     or types or runs the line as it is, in sh -c '…', in a file it runs
//     with a shell, or into a tmux pane with send-keys;
//   - a synopsis (superclaude +why [SESSION] [-f] [--verbose]): the scripts
//     run the command, every option it shows, and every word it names
//     (bash|zsh|fish: each); UPPERCASE words and [words] are placeholders.
func TestEveryReadmeExampleIsRun(t *testing.T) {
	runs := scriptRuns(t)
	lines, unknown := readmeCommands(readme(t))
	for _, u := range unknown {
		t.Errorf("the README's code block line %q is neither a command this test knows (commandWords) "+
			"nor in a picture of a screen (pictures): run it in a script, or say what it is here", u)
	}
	if len(lines) < 50 {
		t.Fatalf("found only %d command lines in the README's code blocks", len(lines))
	}
	for _, line := range lines {
		if why, ok := notRunHere[line]; ok {
			if why == "" {
				t.Errorf("%q: not run here, and no reason given", line)
			}
			continue
		}
		if missing := runs.cover(line); len(missing) > 0 {
			t.Errorf("the README's %q is run by no script of testdata: %s", line, strings.Join(missing, "; "))
		}
	}
	for line := range notRunHere {
		if !slices.Contains(lines, line) {
			t.Errorf("notRunHere lists %q, which the README no longer shows", line)
		}
	}
	// What CI runs itself is what .ci/run runs.
	ci, err := os.ReadFile(filepath.Join(moduleRoot(), ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for line, why := range notRunHere {
		if strings.HasPrefix(why, ranByCI) && line != ".ci/run" && !regexp.MustCompile(`(?m)^(time )?`+regexp.QuoteMeta(line)+`$`).Match(ci) {
			t.Errorf("notRunHere says CI runs %q, but .ci/run does not", line)
		}
	}
}

const ranByCI = "CI runs it (.ci/run)"

// notRunHere are the README's command lines that the scripts do not run,
// each with why, and where it is checked instead.
var notRunHere = map[string]string{
	"curl -fsSL https://raw.githubusercontent.com/superclaude/superclaude/main/install.sh | sh": "it downloads from GitHub: " +
		"internal/release runs install.sh piped into sh, as curl | sh does, against a release snapshot served on 127.0.0.1 (make release-check)",
	"brew install superclaude/tap/superclaude": "it needs Homebrew and a published release: internal/release checks the formula " +
		"GoReleaser writes, in the tap's layout, against the snapshot's checksums (make release-check)",
	"make test":          ranByCI + ": the whole test suite, these scripts included",
	"make vet":           ranByCI,
	"make fuzz":          ranByCI,
	"make e2e":           ranByCI + ": the real CLIs, installed with npm",
	"make release-check": ranByCI + ": GoReleaser, installed with go install",
	"make k8s-check":     ranByCI + ": a module of its own, with the Kubernetes API types",
	".ci/run":            ranByCI + ": CI itself, which installs packages",
	"make bench":         "benchmarks take minutes and need a quiet machine: run by hand, figures in docs/benchmarks.md",
}

// commandWords are the first words of the README's command lines.
var commandWords = []string{"superclaude", "make", "mkdir", "export", "alias", "curl", "brew", ".ci/run"}

// pictures are the README's code blocks that show a screen, not commands,
// by their first line.
var pictures = []string{
	"superclaude: this pane's last conversation can be resumed", // the resume question
	"SESSION       PANE         STATE",                          // the dashboard
	"HOST    SESSION       PANE",                                // +status with other hosts
}

// readmeCommands returns the command lines of the README's indented code
// blocks (fenced ones hold TOML and Go), each without its trailing comment
// or description, and the lines that are neither commands nor pictures.
func readmeCommands(text string) (commands, unknown []string) {
	lines := strings.Split(text, "\n")
	fenced := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "    ") || i == 0 || lines[i-1] != "" {
			continue
		}
		var block []string
		for ; i < len(lines) && (strings.HasPrefix(lines[i], "    ") || lines[i] == ""); i++ {
			if lines[i] != "" {
				block = append(block, strings.TrimSpace(lines[i]))
			}
		}
		if slices.ContainsFunc(pictures, func(p string) bool { return strings.HasPrefix(block[0], p) }) {
			continue
		}
		for _, b := range block {
			switch {
			case strings.HasPrefix(b, "#"):
			case slices.Contains(commandWords, strings.Fields(b)[0]):
				commands = append(commands, stripComment(b))
			default:
				unknown = append(unknown, b)
			}
		}
	}
	return commands, unknown
}

// stripComment cuts a line at its comment or description: two spaces.
func stripComment(line string) string {
	if i := strings.Index(line, "  "); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// runs are what the scripts run: every command's words, and every line of
// shell text they type or hand to a shell.
type runs struct {
	argv  [][]string
	lines map[string]bool
}

// scriptRuns reads testdata/*.txtar.
func scriptRuns(t *testing.T) *runs {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	r := &runs{lines: map[string]bool{}}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		archived := map[string]string{}
		for _, af := range a.Files {
			archived[af.Name] = string(af.Data)
		}
		for _, l := range strings.Split(string(a.Comment), "\n") {
			r.addScriptLine(l, archived)
		}
	}
	return r
}

var (
	condRE  = regexp.MustCompile(`^\[[^]]*\]\s*`)
	shells  = []string{"sh", "bash", "zsh", "fish"}
	tmuxKey = regexp.MustCompile(`^(Enter|Escape|Space|[CM]-.|.)$`)
)

// addScriptLine notes what one line of a script runs.
func (r *runs) addScriptLine(l string, archived map[string]string) {
	l = strings.TrimSpace(l)
	for condRE.MatchString(l) {
		l = condRE.ReplaceAllString(l, "")
	}
	l = strings.TrimSpace(strings.TrimPrefix(l, "!"))
	args := scriptWords(l)
	switch {
	case len(args) > 2 && args[0] == "waitfor":
		args = args[2:]
	case len(args) > 1 && args[0] == "exec":
		args = args[1:]
	default:
		return
	}
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "&") {
		args = args[:n-1] // a background command's name
	}
	switch {
	case len(args) == 3 && slices.Contains(shells, args[0]) && args[1] == "-c":
		r.addShell(args[2])
	case len(args) == 2 && slices.Contains(shells, args[0]) && archived[args[1]] != "":
		r.addShell(archived[args[1]])
	case len(args) > 1 && args[0] == "tmux" && slices.Contains(args, "send-keys"):
		for i := slices.Index(args, "send-keys") + 1; i < len(args); i++ {
			if args[i] == "-t" {
				i++
			} else if !tmuxKey.MatchString(args[i]) {
				r.addShell(args[i])
			}
		}
	default:
		r.argv = append(r.argv, args)
	}
}

// addShell notes shell text: each line, and each command of a line
// separated by "; ".
func (r *runs) addShell(text string) {
	for _, l := range strings.Split(text, "\n") {
		l = stripComment(l)
		if l == "" {
			continue
		}
		r.lines[l] = true
		for _, seg := range strings.Split(l, "; ") {
			seg = strings.TrimSpace(seg)
			r.lines[seg] = true
			words := shellWords(seg)
			if i := slices.IndexFunc(words, func(w string) bool { return w == ">" || w == "<" || w == "|" }); i >= 0 {
				words = words[:i]
			}
			if len(words) > 0 {
				r.argv = append(r.argv, words)
			}
		}
	}
}

// cover says what of a README line no script runs (nothing: it is run).
func (r *runs) cover(line string) []string {
	if !strings.HasPrefix(line, "superclaude ") || !synopsisRE.MatchString(line) {
		words := shellWords(line)
		if r.lines[line] || slices.ContainsFunc(r.argv, func(a []string) bool { return slices.Equal(a, words) }) {
			return nil
		}
		return []string{"no script runs these words"}
	}
	var missing []string
	for _, cmd := range splitSynopsis(line) {
		path, flags, literals := readSynopsis(cmd)
		var ofPath [][]string
		for _, a := range r.argv {
			if len(a) >= len(path) && slices.Equal(a[:len(path)], path) {
				ofPath = append(ofPath, a[len(path):])
			}
		}
		if len(ofPath) == 0 {
			missing = append(missing, strings.Join(path, " ")+" is never run")
			continue
		}
		used := func(word string, isFlag bool) bool {
			return slices.ContainsFunc(ofPath, func(rest []string) bool {
				return slices.ContainsFunc(rest, func(w string) bool {
					return w == word || isFlag && strings.HasPrefix(w, word+"=")
				})
			})
		}
		for _, f := range flags {
			if !used(f, true) {
				missing = append(missing, strings.Join(path, " ")+" is never run with "+f)
			}
		}
		for _, w := range literals {
			if !used(w, false) {
				missing = append(missing, strings.Join(path, " ")+" is never run with "+w)
			}
		}
	}
	return missing
}

// synopsisRE tells a synopsis of superclaude's from a line written out: it
// has an [option], a placeholder, alternatives or a list of commands.
var synopsisRE = regexp.MustCompile(`[\[|…<]|, \+|\b[A-Z][A-Z_=]*\b`)

// splitSynopsis splits "superclaude +status, +dashboard, +resume N" into
// one synopsis per command.
func splitSynopsis(line string) []string {
	parts := strings.Split(line, ", +")
	for i := 1; i < len(parts); i++ {
		parts[i] = "superclaude +" + parts[i]
	}
	return parts
}

var placeholderRE = regexp.MustCompile(`^[A-Z][A-Z0-9_=]*…?$`)

// readSynopsis reads one command's synopsis: the words that name it
// (superclaude +session restart), its options, and the other words it
// names, which a run must use. Bracketed words, UPPERCASE ones and what
// follows a < are placeholders.
func readSynopsis(s string) (path, flags, literals []string) {
	if i := strings.Index(s, " <"); i >= 0 {
		s = s[:i]
	}
	depth := 0
	for _, w := range strings.Fields(strings.NewReplacer("[", " [ ", "]", " ] ").Replace(s)) {
		switch {
		case w == "[":
			depth++
		case w == "]":
			depth--
		case w == "|", w == "--":
		case strings.HasPrefix(w, "-"):
			flags = append(flags, w)
		case len(path) < 2 || len(path) == 2 && path[1] == "+session" && depth == 0 && !placeholderRE.MatchString(w):
			path = append(path, w)
		case depth > 0, placeholderRE.MatchString(w):
		default:
			literals = append(literals, strings.Split(w, "|")...)
		}
	}
	return path, flags, literals
}

// shellWords splits a line as a POSIX shell would, as far as the README's
// lines need: spaces, single and double quotes.
func shellWords(line string) []string { return splitWords(line, false) }

// scriptWords splits a line of a script as testscript does: spaces, single
// quotes, in which ” is a quote, and # starting a comment.
func scriptWords(line string) []string { return splitWords(line, true) }

func splitWords(line string, script bool) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case script && quote == '\'' && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"' && !script:
			quote, in = c, true
		case script && c == '#' && !in:
			return out // a comment
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func TestReadSynopsis(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"superclaude +status [--json] [--here] [--watch]", `["superclaude" "+status"] ["--json" "--here" "--watch"] []`},
		{"superclaude +history [SESSION | PANE]", `["superclaude" "+history"] [] []`},
		{"superclaude +session restart [--session NAME] [--now]", `["superclaude" "+session" "restart"] ["--session" "--now"] []`},
		{"superclaude +session deactivate [--keywords K] < description", `["superclaude" "+session" "deactivate"] ["--keywords"] []`},
		{"superclaude +session prune --older-than 7d [--yes]", `["superclaude" "+session" "prune"] ["--older-than" "--yes"] ["7d"]`},
		{"superclaude +completion bash|zsh|fish", `["superclaude" "+completion"] [] ["bash" "zsh" "fish"]`},
		{"superclaude +session activate DIR [SKILL]", `["superclaude" "+session" "activate"] [] []`},
		{"superclaude +run [flags] -- ARGS", `["superclaude" "+run"] [] []`},
		{"superclaude +session update KEY=VALUE…", `["superclaude" "+session" "update"] [] []`},
	} {
		p, f, l := readSynopsis(tc.in)
		if got := fmt.Sprintf("%q %q %q", p, f, l); got != tc.want {
			t.Errorf("readSynopsis(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := splitSynopsis("superclaude +up FILE, +down FILE, +pane-id"); strings.Join(got, "|") != "superclaude +up FILE|superclaude +down FILE|superclaude +pane-id" {
		t.Errorf("splitSynopsis: %q", got)
	}
	if got := shellWords(`superclaude +run --profile codex -- exec "fix it"`); len(got) != 7 || got[6] != "fix it" {
		t.Errorf("shellWords: %q", got)
	}
	if got := scriptWords(`exec superclaude +run -- exec 'fix it' 'it''s' # a comment`); len(got) != 7 || got[5] != "fix it" || got[6] != "it's" {
		t.Errorf("scriptWords: %q", got)
	}
}
