package deps

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// designLayers reads the layer table of docs/design.md: the rows between
// its layers markers, each a layer number and the packages in backquotes.
func designLayers(md string) (map[string]int, error) {
	_, rest, ok := strings.Cut(md, "<!-- layers: begin -->")
	table, _, ok2 := strings.Cut(rest, "<!-- layers: end -->")
	if !ok || !ok2 {
		return nil, fmt.Errorf("no <!-- layers: begin --> … <!-- layers: end --> table")
	}
	pkgRE := regexp.MustCompile("`([^`]+)`")
	got := map[string]int{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(cells[1]))
		if err != nil {
			continue // the header and its rule
		}
		for _, m := range pkgRE.FindAllStringSubmatch(cells[2], -1) {
			got[m[1]] = n
		}
	}
	return got, nil
}

// layerDiff lists where two layer tables disagree, sorted.
func layerDiff(doc, code map[string]int) []string {
	var bad []string
	for p, l := range code {
		switch d, ok := doc[p]; {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s (layer %d) is missing from docs/design.md", p, l))
		case d != l:
			bad = append(bad, fmt.Sprintf("%s is in layer %d in docs/design.md, %d in deps_test.go", p, d, l))
		}
	}
	for p := range doc {
		if _, ok := code[p]; !ok {
			bad = append(bad, fmt.Sprintf("docs/design.md names %s, which deps_test.go does not", p))
		}
	}
	sort.Strings(bad)
	return bad
}

// TestDesignShowsTheLayers holds the layer table a newcomer reads in
// docs/design.md to the one TestImportDirection enforces.
func TestDesignShowsTheLayers(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := designLayers(string(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range layerDiff(doc, layer) {
		t.Error(msg)
	}
}

// TestLayerDiffsAreFound runs the comparison on a made-up table.
func TestLayerDiffsAreFound(t *testing.T) {
	doc, err := designLayers("x\n<!-- layers: begin -->\n| layer | packages | what |\n|---|---|---|\n" +
		"| 0 | `proc`, `gone` | leaves |\n| 2 | `state` | sessions |\n<!-- layers: end -->\n")
	if err != nil {
		t.Fatal(err)
	}
	got := layerDiff(doc, map[string]int{"proc": 0, "state": 1, "child": 2})
	want := []string{
		"child (layer 2) is missing from docs/design.md",
		"docs/design.md names gone, which deps_test.go does not",
		"state is in layer 2 in docs/design.md, 1 in deps_test.go",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}
