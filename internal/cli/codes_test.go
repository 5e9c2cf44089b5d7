package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/glossary.md's section of codes from Codes")

// Issue 19: the marks on screen (!, RST, /shell …) were explained
// nowhere. docs/glossary.md carries every one of Codes, word for word:
// `go test ./internal/cli -run Glossary -update` rewrites its section.
func TestGlossaryCarriesEveryCode(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "glossary.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- codes: begin -->\n", "<!-- codes: end -->"
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q section", path, begin, end)
	}
	want := CodesMarkdown()
	if got := doc[i+len(begin) : j]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's section of codes is not cli.Codes (go test ./internal/cli -run Glossary -update rewrites it):\n%s", path, got)
	}
}

func TestWriteCodesGroupsByPlace(t *testing.T) {
	var b strings.Builder
	WriteCodes(&b, "")
	out := b.String()
	for _, want := range []string{"dashboard:\n", "\n+status:\n", "\nstatus line:\n", "  RST ", "  !  "} {
		if !strings.Contains(out, want) {
			t.Errorf("WriteCodes lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	WriteCodes(&b, "dashboard")
	if strings.Contains(b.String(), "ACTIVITY") || strings.Contains(b.String(), "dashboard:") {
		t.Errorf("WriteCodes(dashboard):\n%s", b.String())
	}
}
