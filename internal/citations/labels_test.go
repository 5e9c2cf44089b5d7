package citations

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// labelRE finds the short labels the code's comments borrow from the
// documents superclaude was specified from: scenarios (S4, S6A), races
// (R1) and invariants ("invariant 2", "invariants 4 and 5").
var labelRE = regexp.MustCompile(`\b(S\d{1,2}[AB]?|R\d{1,2})\b|\binvariants?\s+(\d{1,2})(?:\s+and\s+(\d{1,2}))?\b`)

var (
	numberCell = regexp.MustCompile(`^\d+$`)
	labelCell  = regexp.MustCompile(`^(S\d+[AB]?|R\d+)$`)
)

// glossaryLabels returns the labels docs/glossary.md explains: the first
// cell of a row of its tables of scenarios and races, and the numbers of
// its table of invariants.
func glossaryLabels(glossary string) map[string]bool {
	labels := map[string]bool{}
	invariants := false
	for _, l := range strings.Split(glossary, "\n") {
		if strings.HasPrefix(l, "#") {
			invariants = strings.Contains(strings.ToLower(l), "invariants")
		}
		cell, _, ok := strings.Cut(strings.TrimPrefix(l, "|"), "|")
		if !ok || !strings.HasPrefix(l, "|") {
			continue
		}
		cell = strings.TrimSpace(cell)
		switch {
		case invariants && numberCell.MatchString(cell):
			labels["invariant "+cell] = true
		case labelCell.MatchString(cell):
			labels[cell] = true
		}
	}
	return labels
}

// unexplained returns every label in the Go comments of files that the
// glossary does not explain, as "file:line: label".
func unexplained(files map[string]string, labels map[string]bool) []string {
	var bad []string
	for name, text := range files {
		if path.Ext(name) != ".go" {
			continue
		}
		for _, m := range labelRE.FindAllStringSubmatchIndex(text, -1) {
			line := 1 + strings.Count(text[:m[0]], "\n")
			var found []string
			if m[2] >= 0 {
				found = append(found, text[m[2]:m[3]])
			}
			for _, g := range [][2]int{{m[4], m[5]}, {m[6], m[7]}} {
				if g[0] >= 0 {
					found = append(found, "invariant "+text[g[0]:g[1]])
				}
			}
			for _, l := range found {
				if !labels[l] {
					bad = append(bad, fmt.Sprintf("%s:%d: %s is not explained in docs/glossary.md", name, line, l))
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestLabelsAreInTheGlossary: a comment may say S4, R1 or "invariant 2"
// only where docs/glossary.md says what it means.
func TestLabelsAreInTheGlossary(t *testing.T) {
	files := tracked(t, root(t))
	labels := glossaryLabels(files["docs/glossary.md"])
	if len(labels) < 20 {
		t.Fatalf("found only %d labels in docs/glossary.md: %v", len(labels), labels)
	}
	for _, b := range unexplained(files, labels) {
		t.Error(b)
	}
}

// TestUnexplainedLabelsAreFound runs the check on a made-up glossary and
// file.
func TestUnexplainedLabelsAreFound(t *testing.T) {
	labels := glossaryLabels("## Scenarios\n\n| label | what |\n|---|---|\n| S4 | overflow |\n\n" +
		"## Races\n\n| R1 | a tick |\n\n## Invariants\n\n| # | invariant |\n|---|---|\n| 2 | one agent |\n| 4 | never resumed |\n")
	files := map[string]string{
		"a.go":  "  S4 and R1 (invariant 2; invariants 4 and 5), S12, R9, S6A\n  SIGTERM, S4S, RS1\n",
		"b.md":  "S99",
		"c.txt": "R8",
	}
	got := unexplained(files, labels)
	want := []string{
		"a.go:1: R9 is not explained in docs/glossary.md",
		"a.go:1: S12 is not explained in docs/glossary.md",
		"a.go:1: S6A is not explained in docs/glossary.md",
		"a.go:1: invariant 5 is not explained in docs/glossary.md",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}
