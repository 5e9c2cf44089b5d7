package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/testkit/testbin"
)

// readme is the README, read once.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// example is one superclaude command line the README shows: the command,
// the +session subcommand if any, and the options it uses.
type example struct {
	line, command, sub string
	flags              []string
}

var (
	commandRE = regexp.MustCompile("superclaude (\\+[a-z-]+)([^`\\n]*)")
	flagRE    = regexp.MustCompile(`(^|[\s\[|])(--?[a-z][a-z-]*)`)
)

// examples finds every superclaude +command the README shows, in code
// blocks and in running text, with the options each uses before any "--"
// (what follows is the agent's).
func examples(text string) []example {
	var out []example
	for _, m := range commandRE.FindAllStringSubmatch(text, -1) {
		ex := example{line: m[0], command: m[1]}
		rest := m[2]
		if i := strings.Index(rest, " -- "); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.Index(rest, "  "); i >= 0 { // the description after a command in a list
			rest = rest[:i]
		}
		if ex.command == "+session" {
			if f := strings.Fields(rest); len(f) > 0 && !strings.HasPrefix(f[0], "-") {
				ex.sub = f[0]
			}
		}
		for _, f := range flagRE.FindAllStringSubmatch(rest, -1) {
			ex.flags = append(ex.flags, f[2])
		}
		out = append(out, ex)
	}
	return out
}

// Every README example is run (issue 19): each superclaude command the
// README shows exists, and so does every option it gives it, as the
// program's own help says — a renamed command or a dropped flag fails here.
// The one example of a typo is refused as the README says it is.
func TestEveryReadmeCommandExists(t *testing.T) {
	bin := testbin.Superclaude(t)
	exs := examples(readme(t))
	if len(exs) < 40 {
		t.Fatalf("found only %d examples in the README", len(exs))
	}
	helps := map[string]string{}
	for _, ex := range exs {
		if ex.command == "+stauts" {
			out, err := exec.Command(bin, ex.command).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "did you mean +status") {
				t.Errorf("%q: %v %s", ex.line, err, out)
			}
			continue
		}
		args := []string{ex.command}
		if ex.sub != "" {
			args = append(args, ex.sub)
		}
		key := strings.Join(args, " ")
		help, ok := helps[key]
		if !ok {
			cmd := exec.Command(bin, append(args, "--help")...)
			cmd.Env = append(os.Environ(), "PATH=/nonexistent") // no claude: a help meant for it would fail
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "superclaude "+key) {
				t.Errorf("the README's %q: superclaude %s --help: %v\n%s", ex.line, key, err, out)
				continue
			}
			help, helps[key] = string(out), string(out)
		}
		for _, f := range ex.flags {
			if !regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(f) + `[\s,=]`).MatchString(help) {
				t.Errorf("the README's %q uses %s, which superclaude %s does not have", ex.line, f, key)
			}
		}
	}
	t.Logf("%d README examples, %d commands", len(exs), len(helps))
}

func TestExamplesReadsCommandsAndTheirOptions(t *testing.T) {
	got := examples("    superclaude +status [--json] [--here] [--watch]   every session\n" +
		"and `superclaude +session restart --session NAME` or\n" +
		"    superclaude +run --profile codex -- exec --full-auto\n" +
		"    superclaude +why [SESSION] [-f] [--verbose]\n")
	want := []string{"+status  [--json --here --watch]", "+session restart [--session]", "+run  [--profile]", "+why  [-f --verbose]"}
	if len(got) != len(want) {
		t.Fatalf("examples = %+v", got)
	}
	for i, ex := range got {
		if s := ex.command + " " + ex.sub + " " + "[" + strings.Join(ex.flags, " ") + "]"; s != want[i] {
			t.Errorf("example %d = %q, want %q", i, s, want[i])
		}
	}
}
